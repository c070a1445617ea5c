import type { FetchLike, RequestId } from '@modelcontextprotocol/client';

/**
 * Watches the event streams an HTTP upstream answers the gateway's POSTs with, and reports each
 * request the upstream sends on one (`relate(serverRequestId, postedRequestId)`): Streamable HTTP puts
 * a server-to-client request that belongs to a call on that call's own stream, which is how the
 * gateway knows whose call it is. The bytes pass through unchanged, and each request is reported
 * before the SDK reads it (the watch sits upstream of the SDK's parser in the same pipe).
 */
export function relateServerRequests(fetch: FetchLike, relate: (serverRequestId: RequestId, postedRequestId: RequestId) => void): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (init?.method !== 'POST' || response.body === null || !(response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream')) return response;
    const posted = postedRequestId(init.body);
    if (posted === undefined) return response;
    const body = response.body.pipeThrough(eventWatcher((message) => relate(message.id, posted)));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The id of the one JSON-RPC request a POST body carries (the SDK sends no batches). */
function postedRequestId(body: unknown): RequestId | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown };
    return typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : undefined;
  } catch {
    return undefined;
  }
}

/** A pass-through that reads the `data:` of each complete event and reports the requests among them. */
function eventWatcher(onRequest: (message: { id: RequestId }) => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  let pending = '';
  return new TransformStream({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      let end: RegExpExecArray | null;
      while ((end = /\r?\n\r?\n/.exec(pending)) !== null) {
        const event = pending.slice(0, end.index);
        pending = pending.slice(end.index + end[0].length);
        const data = event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
          .join('\n');
        if (data !== '') report(data, onRequest);
      }
      controller.enqueue(chunk);
    },
  });
}

function report(data: string, onRequest: (message: { id: RequestId }) => void): void {
  try {
    const message = JSON.parse(data) as { id?: unknown; method?: unknown };
    if (typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number')) onRequest({ id: message.id });
  } catch {
    // not JSON: the SDK will say so
  }
}
