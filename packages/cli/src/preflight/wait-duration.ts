import { usageError } from '../cli-error.js';

export const MAX_WAIT_MS = 10_000;

/**
 * `--wait DURATION`: a number with a unit (ms or s; "0" alone is allowed), from 0 to 10s, as whole
 * milliseconds. Go-style durations ("1.5s", "250ms", "1s500ms") because that is what operators type.
 */
export function parseWaitDuration(text: string): number {
  const problem = `--wait: expected a duration from 0 to 10s such as 500ms, 2s or 1.5s, got ${JSON.stringify(text)}`;
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?|\.\d+)(ms|s)/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== trimmed) throw usageError(problem);
  let ms = 0;
  for (const part of parts) ms += Number(part[1]) * (part[2] === 's' ? 1000 : 1);
  ms = Math.round(ms);
  if (ms > MAX_WAIT_MS) throw usageError(problem);
  return ms;
}
