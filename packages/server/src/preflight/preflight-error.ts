import type { ValidationIssue } from '@mcpproxy/schema';

/**
 * Why the seam computed no verdict. `request` errors are the caller's (REST 400, MCP -32602 or an
 * argument error); `unavailable` errors are the gateway's (REST 503, MCP -32603 or a tool error
 * saying no verdict was computed). Neither writes an activity record.
 */
export type PreflightErrorCode =
  | 'invalid_json' // REST: the body text (parsed by the seam) is not one JSON value
  | 'invalid_request' // the body/arguments break the surface's schema (issues say where)
  | 'no_tools' // the tool list is empty
  | 'too_many_tools' // the raw list (before dedup) is over the surface's cap
  | 'conflicting_pins' // REST: one ID asked with two different pins (an absent pin counts as a value)
  | 'unknown_profile' // REST: the requested profile does not exist
  | 'state_unavailable' // the published state could not be read or evaluated
  | 'activity_unavailable'; // the activity record could not be written

export type PreflightErrorKind = 'request' | 'unavailable';

export interface PreflightError {
  readonly code: PreflightErrorCode;
  readonly kind: PreflightErrorKind;
  /** One human sentence; never a stack trace. */
  readonly message: string;
  /** JSON pointer into the raw request ('' = the whole request). */
  readonly path: string;
  readonly request_id: string;
  /** invalid_request: every schema issue. */
  readonly issues?: readonly ValidationIssue[];
  /** no_tools / too_many_tools: the raw count and the surface's cap. */
  readonly count?: number;
  readonly max?: number;
}

const KIND: Readonly<Record<PreflightErrorCode, PreflightErrorKind>> = {
  invalid_json: 'request',
  invalid_request: 'request',
  no_tools: 'request',
  too_many_tools: 'request',
  conflicting_pins: 'request',
  unknown_profile: 'request',
  state_unavailable: 'unavailable',
  activity_unavailable: 'unavailable',
};

export function preflightError(
  code: PreflightErrorCode,
  message: string,
  path: string,
  requestId: string,
  extra: Pick<PreflightError, 'issues' | 'count' | 'max'> = {},
): PreflightError {
  return { code, kind: KIND[code], message, path, request_id: requestId, ...extra };
}
