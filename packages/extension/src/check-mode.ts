import type { CheckModeResult } from '@mcpproxy/schema';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { withNoVerdict } from './in-band-error.js';
import type { InBandOutcome } from './in-band-outcome.js';
import { faultSentence } from './request-fault.js';
import { checkModeVerdict, OffSurfaceReason } from './wire-verdict.js';

/** The tool whose check mode this is; its errors are prefixed with its name like its other errors. */
export const CHECK_MODE_TOOL = 'describe_tool';

/**
 * describe_tool check mode: `{ tool_ids, check: true, filters? }` -> a text content holding
 * `{ verdict, checked_at, request_id, results }` (never a hash, schema or definition). Every
 * failure is a tool error (isError) that says no verdict was computed; the arguments go to `check`
 * as sent, so the activity record keeps them raw.
 */
export async function runCheckMode(args: unknown, check: (args: unknown) => Promise<InBandOutcome>): Promise<CallToolResult> {
  const outcome = await check(args);
  if (!outcome.ok) {
    const { error } = outcome;
    return checkModeError(error.kind === 'request' ? faultSentence(error, 'check') : error.message);
  }
  let result: CheckModeResult;
  try {
    result = {
      verdict: outcome.result.verdict,
      checked_at: outcome.result.checked_at,
      request_id: outcome.result.request_id,
      results: outcome.result.tools.map(checkModeVerdict) as unknown as CheckModeResult['results'],
    };
  } catch (error) {
    if (error instanceof OffSurfaceReason) return checkModeError(`internal error: ${error.message}`);
    throw error;
  }
  return { content: [{ type: 'text', text: JSON.stringify(result) }] };
}

export function checkModeError(sentence: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${CHECK_MODE_TOOL}: ${withNoVerdict(sentence)}` }] };
}
