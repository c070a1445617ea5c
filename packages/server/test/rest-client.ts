// A REST client for the tests: real HTTP (fetch) against a running gateway, and EVERY answer checked
// against the OpenAPI document before the test sees it.
import { contractProblems, findOperation } from './openapi-contract.js';

export const ADMIN_KEY = 'test-admin-key-0123456789';

export interface RestAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** Parsed JSON (undefined for an empty body). */
  readonly body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** The raw body text, for byte-by-byte comparisons. */
  readonly text: string;
}

export interface RestCallOptions {
  /** A JSON value (serialised), or a string or bytes sent as they are. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** undefined = the client's default credential; null = none. */
  readonly auth?: { readonly apiKey: string } | { readonly bearer: string } | null;
}

/** Every (operationId, status) a test has seen, for the coverage check. */
export const SEEN = new Set<string>();

export interface RestClient {
  call(method: string, path: string, options?: RestCallOptions): Promise<RestAnswer>;
  preflight(body: unknown, options?: Omit<RestCallOptions, 'body'>): Promise<RestAnswer>;
}

export function restClient(origin: string, defaultAuth: RestCallOptions['auth'] = { apiKey: ADMIN_KEY }): RestClient {
  async function call(method: string, path: string, options: RestCallOptions = {}): Promise<RestAnswer> {
    const auth = options.auth === undefined ? defaultAuth : options.auth;
    const headers: Record<string, string> = {
      ...(auth === null || auth === undefined ? {} : 'apiKey' in auth ? { 'x-api-key': auth.apiKey } : { authorization: `Bearer ${auth.bearer}` }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    };
    const body = options.body === undefined ? undefined : typeof options.body === 'string' || options.body instanceof Uint8Array ? options.body : JSON.stringify(options.body);
    const response = await fetch(`${origin}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    const pathname = new URL(`${origin}${path}`).pathname;
    const problems = contractProblems(method, pathname, response.status, response.headers.get('content-type'), parsed);
    if (problems.length > 0) {
      throw new Error(`${method} ${path} -> ${response.status} breaks the OpenAPI document:\n${problems.join('\n')}\n${text.slice(0, 2000)}`);
    }
    const operation = findOperation(method, pathname);
    SEEN.add(`${operation?.operationId ?? `${method} (undocumented)`} ${response.status}`);
    return { status: response.status, headers: response.headers, body: parsed, text };
  }
  return {
    call,
    preflight: (body, options = {}) => call('POST', '/api/v1/preflight', { ...options, body }),
  };
}

/** The answer without the fields that legitimately differ between two calls. */
export function withoutVolatile(text: string): string {
  const value = JSON.parse(text) as Record<string, unknown>;
  delete value['request_id'];
  delete value['checked_at'];
  return JSON.stringify(value);
}
