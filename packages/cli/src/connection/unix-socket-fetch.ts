import { request, type IncomingHttpHeaders } from 'node:http';

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);

/**
 * A fetch that sends every request to a gateway's local socket (HTTP over a Unix domain socket),
 * whatever the URL's host, so that the REST client needs no second code path. Failures reject as
 * fetch's do (a TypeError whose cause carries the system error code, ECONNREFUSED, ENOENT, ...).
 */
export function unixSocketFetch(socketPath: string): typeof fetch {
  const socketFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    return new Promise<Response>((resolve, reject) => {
      const req = request({
        socketPath,
        method: init?.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        headers: { host: 'localhost', ...Object.fromEntries(new Headers(init?.headers).entries()) },
        ...(init?.signal ? { signal: init.signal } : {}),
      });
      req.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })));
        res.on('end', () => {
          const status = res.statusCode ?? 500;
          resolve(new Response(NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks), { status, headers: headersOf(res.headers) }));
        });
      });
      if (typeof init?.body === 'string') req.write(init.body);
      req.end();
    });
  };
  return socketFetch as typeof fetch;
}

function headersOf(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
