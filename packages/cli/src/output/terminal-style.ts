import type { Verdict } from '@mcpproxy/schema';
import type { Writable } from '../cli-io.js';

export interface TerminalStyle {
  verdict(text: string, verdict: Verdict): string;
  bold(text: string): string;
}

const PLAIN: TerminalStyle = { verdict: (text) => text, bold: (text) => text };
const VERDICT_COLOURS: Readonly<Record<Verdict, string>> = { ready: '32', degraded_retryable: '33', blocked: '31', unknown_ids: '35' };

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org) or TERM is dumb. */
export function terminalStyle(stream: Writable, env: Readonly<Record<string, string | undefined>>): TerminalStyle {
  const noColour = (env['NO_COLOR'] ?? '') !== '' || env['TERM'] === 'dumb';
  if (stream.isTTY !== true || noColour) return PLAIN;
  return {
    verdict: (text, verdict) => `\u001b[${VERDICT_COLOURS[verdict]}m${text}\u001b[0m`,
    bold: (text) => `\u001b[1m${text}\u001b[0m`,
  };
}
