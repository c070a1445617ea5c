import type { ToolResult } from '@mcpproxy/evaluator';
import type { ValidationIssue, Verdict } from '@mcpproxy/schema';

/** The in-band surfaces of the extension (the activity record's `surface`). */
export type InBandSurface = 'mcp-rider' | 'mcp-check' | 'mcp-resolve';

/** A verdict computed at the agent tier: one result per unique ID, in order of first occurrence. */
export interface InBandVerdict {
  readonly verdict: Verdict;
  /** ISO 8601: when the state the verdict describes was read. */
  readonly checked_at: string;
  /** The correlation id of the activity record written for this verdict. */
  readonly request_id: string;
  readonly tools: readonly ToolResult[];
}

/** Why no verdict was computed, for the caller to branch on (the JSON-RPC error's `data.code`). */
export type InBandFailureCode =
  | 'invalid_request' // the rider / arguments break the surface's schema (issues say where)
  | 'no_tools' // the tool list is empty
  | 'too_many_tools' // the raw list (before dedup) is over 50
  | 'conflicting_pins' // the `pins` experiment: one ID asked with two different pins (an absent pin counts as a value)
  | 'state_unavailable' // the server's state could not be read
  | 'invalid_tool_state' // the server's author described a tool's state in a way the extension cannot carry
  | 'activity_unavailable'; // the activity record could not be written

/** `request`: the caller's fault (-32602); `unavailable`: the server's (-32603). Neither wrote a record. */
export interface InBandFailure {
  readonly kind: 'request' | 'unavailable';
  readonly code: InBandFailureCode;
  /** One sentence; never a stack. */
  readonly message: string;
  /** JSON pointer into the raw request ('' = the whole request). */
  readonly path: string;
  readonly issues?: readonly ValidationIssue[];
  readonly count?: number;
  readonly max?: number;
}

export type InBandOutcome = { readonly ok: true; readonly result: InBandVerdict } | { readonly ok: false; readonly error: InBandFailure };
