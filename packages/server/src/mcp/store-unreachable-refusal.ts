import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * The text of a tools/call refused because the gateway's shared store cannot be reached. The gates
 * of a call (quarantine, approvals, disabled tools) live in that store; without it this replica may
 * have missed an operator's decision taken on another one, so it makes no call rather than one the
 * operator has forbidden. Not a registry reason: it says nothing about the tool, only the gateway.
 */
export const STORE_UNREACHABLE_REFUSAL = [
  "Tool call refused: the gateway's store is unreachable (retryable)",
  'This gateway cannot reach its shared PostgreSQL store, so it cannot be sure it has seen the latest quarantine, approval and disabled-tool decisions; no call was made.',
  'Remediation: retry shortly; tool calls resume on their own once the store is back.',
].join('\n');

/**
 * The same refusal for a resources/read or a prompts/get, which have no error result of their own: a
 * JSON-RPC internal error (it is the gateway's condition, not the request's), retryable, with no
 * request made upstream. `what` names the request, e.g. `Resource fixture://note`.
 */
export function storeUnreachableError(what: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `${what} refused: the gateway's store is unreachable (retryable). This gateway cannot reach its shared PostgreSQL store, so it cannot be sure it has seen the latest quarantine and disabled-server decisions; nothing was asked of the upstream. Retry shortly.`,
    { reason: 'store_unreachable', retryable: true },
  );
}
