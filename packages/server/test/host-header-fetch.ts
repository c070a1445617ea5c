// fetch() will not send a Host header of the caller's choosing, so this is a fetch over node:http
// that connects to one address (127.0.0.1) while saying another name in Host: what a client
// behind DNS or a load balancer looks like to the gateway. The body streams, so SSE works.
import { request } from 'node:http';
import { Readable } from 'node:stream';

export function fetchWithHost(host: string, extraHeaders: Record<string, string> = {}): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
    for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
    headers.set('host', host);
    const body = init?.body === undefined || init.body === null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
    if (body !== undefined) headers.set('content-length', String(body.length));
    return new Promise<Response>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method: init?.method ?? 'GET', headers: Object.fromEntries(headers), setHost: false },
        (res) => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          const status = res.statusCode ?? 0;
          const stream = status === 204 || status === 304 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          resolve(new Response(stream, { status, headers: answerHeaders }));
        },
      );
      init?.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true });
      req.on('error', reject);
      req.end(body);
    });
  };
}
