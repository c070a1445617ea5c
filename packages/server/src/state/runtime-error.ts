/**
 * Why the runtime refused an operator action or could not forward a call. Callers branch on
 * `code` (REST maps unknown_* to 404; the MCP surface relays an upstream's JSON-RPC error, kept as
 * the `cause`, as that error, and turns any other failure into a tool error).
 */
export type RuntimeErrorCode =
  | 'unknown_server' // not in the configuration
  | 'unknown_tool' // not in the server's index
  | 'server_disabled'
  | 'server_quarantined'
  | 'server_not_connected' // no live connection to forward to (connecting, error, pending_auth...)
  | 'server_saturated' // the upstream said it is overloaded: not called until its window ends
  | 'upstream_timeout'
  | 'upstream_failed' // the upstream answered with a JSON-RPC error or the transport failed; see cause
  | 'runtime_closed';

export class RuntimeError extends Error {
  override readonly name = 'RuntimeError';

  constructor(
    readonly code: RuntimeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
