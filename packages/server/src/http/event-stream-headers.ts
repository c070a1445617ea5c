import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Makes an SSE answer's headers leave as soon as they are written. Node holds a response's headers
 * until its first body bytes, and a session's standalone GET stream may carry no event for a long
 * time: a client that waits for the headers (fetch() resolves on them) would wait for the first
 * notification or keep-alive instead of learning at once that the stream is open.
 */
export function flushEventStreamHeaders(res: ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const result = (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    if (isEventStream(args.find((arg): arg is OutgoingHttpHeaders => typeof arg === 'object' && arg !== null && !Array.isArray(arg)))) this.flushHeaders();
    return result;
  } as ServerResponse['writeHead'];
}

function isEventStream(headers: OutgoingHttpHeaders | undefined): boolean {
  if (headers === undefined) return false;
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  return typeof type === 'string' && type.toLowerCase().startsWith('text/event-stream');
}
