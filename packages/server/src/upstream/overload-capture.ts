import type { FetchLike } from '@modelcontextprotocol/client';

/** An HTTP answer with which an upstream says it is overloaded. */
export interface HttpOverload {
  readonly status: 429 | 503;
  /** The raw Retry-After header, when sent. */
  readonly retryAfter: string | undefined;
}

/**
 * Watches the JSON-RPC POSTs of one HTTP upstream connection for 429 and 503. The SDK turns
 * either into a bare transport error without the headers; the response itself carries the
 * Retry-After. The GET event stream is left out: its failures are the connection's health, not
 * an answer to a request.
 */
export function captureOverload(inner: FetchLike, onOverload: (overload: HttpOverload) => void): FetchLike {
  return async (input, init) => {
    const response = await inner(input, init);
    if ((response.status === 429 || response.status === 503) && (init?.method ?? 'GET').toUpperCase() === 'POST') {
      onOverload({ status: response.status, retryAfter: response.headers.get('retry-after') ?? undefined });
    }
    return response;
  };
}
