import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * The error an upstream gets for a sampling, elicitation or roots request the gateway does not pass
 * to a client, saying why (`data.reason` for a program: `capability_missing`, `client_gone`,
 * `no_answer`, `not_routable`).
 */
export function serverRequestRefusal(method: string, why: string, reason: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidRequest, `mcpproxy: ${method} was not passed to the client: ${why}`, { reason });
}

/** A failure while the client was being asked: its own JSON-RPC error as it is, anything else said in words. */
export function clientAnswerFailure(method: string, error: unknown): Error {
  if (error instanceof ProtocolError) return error;
  return serverRequestRefusal(method, `the client did not answer (${error instanceof Error ? error.message : String(error)})`, 'client_gone');
}
