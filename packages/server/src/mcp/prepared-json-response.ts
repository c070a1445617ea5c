import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

/**
 * How prepared bytes get past an SDK transport, which answers an HTTP exchange by serializing the
 * message its `send` is given: the transport is handed a small stand-in result for the same request
 * (which settles its own bookkeeping and status), and the HTTP response it builds gets the prepared
 * bytes as its body in place of the stand-in's.
 */
export function standInResult(id: RequestId): JSONRPCMessage {
  return { jsonrpc: '2.0', id, result: {} };
}

/** Whether the SDK answered the stand-in the way a result is answered: 200, one JSON body. */
export function answersStandIn(response: Response): boolean {
  return response.status === 200 && response.headers.get('content-type')?.startsWith('application/json') === true;
}

/** The SDK's response around a stand-in, with `body` (the real answer's bytes) as its body. */
export async function withPreparedBody(response: Response, body: Buffer): Promise<Response> {
  await response.body?.cancel();
  const headers = new Headers(response.headers);
  headers.set('content-length', String(body.length));
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
