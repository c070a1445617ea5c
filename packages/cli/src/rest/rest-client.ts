import type { ApiError } from '@mcpproxy/schema';
import { CliError } from '../cli-error.js';
import { CLIENT_HEADER } from '../cli-version.js';
import type { ConnectionSettings } from '../connection/connection-settings.js';
import { unixSocketFetch } from '../connection/unix-socket-fetch.js';
import { OPERATION_ROUTES, type OperationId, type RestOperations } from './rest-operations.js';

type BodyOf<K extends OperationId> = RestOperations[K] extends { body: infer B } ? B : undefined;

export interface CallOptions<K extends OperationId> {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: BodyOf<K>;
  /** Sent as X-Request-Id. */
  readonly requestId?: string;
  /** How long to wait for the whole answer (default ANSWER_TIMEOUT_MS). */
  readonly timeoutMs?: number;
}

/**
 * How long an answer may take beyond any wait the request itself asks for: a gateway that stops
 * answering fails the command (exit 1) instead of holding a CI job until its own timeout.
 */
export const ANSWER_TIMEOUT_MS = 30_000;

export interface RestClient {
  readonly origin: string;
  call<K extends OperationId>(operation: K, options?: CallOptions<K>): Promise<RestOperations[K]['result']>;
}

/**
 * The gateway's REST API for the CLI: one typed call per operation, errors as CliError values
 * with one readable line (the gateway's ApiError message and code, or why it could not be reached).
 * A connection with a local socket sends every request over it.
 */
export function createRestClient(connection: ConnectionSettings, fetchImpl: typeof fetch = connection.socket === undefined ? fetch : unixSocketFetch(connection.socket)): RestClient {
  const { origin, credential } = connection;
  // What the messages name: the address the requests really go to.
  const where = connection.socket ?? origin;
  return {
    origin,
    async call(operation, options = {}) {
      const route = OPERATION_ROUTES[operation];
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.params?.[name] ?? ''));
      const query = new URLSearchParams();
      for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) query.set(key, String(value));
      const url = `${origin}${path}${query.toString() === '' ? '' : `?${query.toString()}`}`;
      const headers: Record<string, string> = { accept: 'application/json', 'user-agent': CLIENT_HEADER, 'x-client': CLIENT_HEADER };
      if (credential.kind === 'api-key') headers['x-api-key'] = credential.secret;
      if (credential.kind === 'token') headers['authorization'] = `Bearer ${credential.secret}`;
      if (options.requestId !== undefined) headers['x-request-id'] = options.requestId;
      if (options.body !== undefined) headers['content-type'] = 'application/json';

      const timeoutMs = options.timeoutMs ?? ANSWER_TIMEOUT_MS;
      const signal = AbortSignal.timeout(timeoutMs);
      const timedOut = () => new CliError('connection', `the gateway at ${where} did not answer ${route.method} ${path} within ${timeoutMs / 1000} s`);
      let response: Response;
      try {
        // Never follow a redirect: X-API-Key, unlike Authorization, would go along to another origin.
        response = await fetchImpl(url, { method: route.method, headers, signal, redirect: 'manual', ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
      } catch (cause) {
        if (signal.aborted) throw timedOut();
        throw new CliError('connection', `cannot reach the gateway at ${where}: ${networkReason(cause)} (is it running? start it with: mcpproxy serve)`);
      }
      let text: string;
      try {
        text = await response.text();
      } catch (cause) {
        if (signal.aborted) throw timedOut();
        throw new CliError('connection', `the answer to ${route.method} ${path} was cut off: ${networkReason(cause)}`);
      }
      const body = parseJson(text);
      if (response.status === route.status) {
        if (body === undefined) throw new CliError('invalid_answer', `${route.method} ${path}: the gateway answered ${response.status} without a JSON body`);
        return body as RestOperations[typeof operation]['result'];
      }
      throw answerError(response.status, body, route.method, path, connection);
    },
  };
}

function answerError(status: number, body: unknown, method: string, path: string, connection: ConnectionSettings): CliError {
  const apiError = isApiError(body) ? body : undefined;
  const said = apiError === undefined ? `${method} ${path} answered HTTP ${status}` : `${apiError.message} (${apiError.code}, HTTP ${status})`;
  if (status === 401) {
    const { credential } = connection;
    const hint =
      credential.kind === 'none'
        ? `${credential.why}; pass --api-key (or MCPPROXY_API_KEY), --token (or MCPPROXY_TOKEN), or --config of the gateway`
        : `check the credential from ${credential.source}`;
    return new CliError('unauthorized', `the gateway refused the credentials: ${said}; ${hint}`);
  }
  if (status === 403) return new CliError('unauthorized', `${said}; this needs the admin API key (--api-key), not an agent token`);
  return new CliError('gateway', said);
}

function isApiError(body: unknown): body is ApiError {
  return typeof body === 'object' && body !== null && typeof (body as ApiError).code === 'string' && typeof (body as ApiError).message === 'string';
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function networkReason(cause: unknown): string {
  const inner = typeof cause === 'object' && cause !== null ? (cause as { cause?: unknown }).cause : undefined;
  const code = typeof inner === 'object' && inner !== null ? (inner as { code?: unknown }).code : undefined;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND') return 'host not found';
  if (typeof code === 'string') return code;
  return inner instanceof Error ? inner.message : cause instanceof Error ? cause.message : String(cause);
}
