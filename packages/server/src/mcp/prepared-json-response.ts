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

/**
 * The SDK's response around a stand-in, with the real answer's bytes as its body: `pieces` written
 * one after another as they are. A Response made from one buffer copies it; a stream of the pieces
 * hands the cached page bytes to the socket without a copy (a plain stream, not a byte stream, which
 * would detach them).
 */
export async function withPreparedBody(response: Response, pieces: readonly Buffer[]): Promise<Response> {
  await response.body?.cancel();
  const headers = new Headers(response.headers);
  headers.set('content-length', String(byteLength(pieces)));
  return new Response(piecesStream(pieces), { status: response.status, statusText: response.statusText, headers });
}

/**
 * The response {@link withPreparedBody} makes of the SDK's answer to a stand-in result (200, its
 * one `Content-Type: application/json` header), for an answer built without the SDK.
 */
export function preparedJsonResponse(pieces: readonly Buffer[]): Response {
  return new Response(piecesStream(pieces), { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(byteLength(pieces)) } });
}

function byteLength(pieces: readonly Buffer[]): number {
  return pieces.reduce((sum, piece) => sum + piece.length, 0);
}

function piecesStream(pieces: readonly Buffer[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < pieces.length) controller.enqueue(pieces[next++]!);
      else controller.close();
    },
  });
}
