import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { authenticateRestRequest, type RestCredentials } from '../auth/rest-authentication.js';
import type { RestPrincipal } from '../auth/rest-principal.js';
import type { HttpRoute } from '../http/http-route.js';
import { sendJson } from '../http/json-response.js';
import { acceptRequestId } from '@mcpproxy/extension';
import { apiError } from './api-error.js';
import { readBodyText, readJsonBody, type BodyText, type JsonBody } from './json-body.js';
import { compilePathTemplate, pathSegments, type PathTemplate } from './path-template.js';
import { queryFault } from './query-fault.js';
import type { RestEndpoint, RestReply, RestRequest } from './rest-endpoint.js';

export const API_PREFIX = '/api/v1';

export interface RestRouteOptions {
  readonly endpoints: readonly RestEndpoint[];
  readonly credentials: RestCredentials;
  readonly onError?: (error: unknown) => void;
}

interface CompiledEndpoints {
  /** Endpoints whose path has no {param}, by their full path as it is usually sent. */
  readonly literal: ReadonlyMap<string, readonly RestEndpoint[]>;
  /** Every endpoint, matched segment by segment (decoded, trailing slash allowed). */
  readonly templated: readonly { readonly endpoint: RestEndpoint; readonly template: PathTemplate }[];
}

function compileEndpoints(endpoints: readonly RestEndpoint[]): CompiledEndpoints {
  const literal = new Map<string, RestEndpoint[]>();
  const templated: { endpoint: RestEndpoint; template: PathTemplate }[] = [];
  for (const endpoint of endpoints) {
    templated.push({ endpoint, template: compilePathTemplate(endpoint.path) });
    if (endpoint.path.includes('{')) continue;
    const path = `${API_PREFIX}${endpoint.path}`;
    literal.set(path, [...(literal.get(path) ?? []), endpoint]);
  }
  return { literal, templated };
}

/**
 * Everything under /api/v1: authenticate (401), find the endpoint (404, 405 with Allow), check the
 * tier (403), then answer. Every error body is an ApiError carrying the request id, which is also
 * sent as X-Request-Id on every answer.
 */
export function restRoute(options: RestRouteOptions): HttpRoute {
  const compiled = compileEndpoints(options.endpoints);
  return {
    match(pathname) {
      if (pathname !== API_PREFIX && !pathname.startsWith(`${API_PREFIX}/`)) return undefined;
      return (req, res) => answer(req, res, pathname, compiled, options);
    },
  };
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  compiled: CompiledEndpoints,
  options: RestRouteOptions,
): Promise<void> {
  const requestId = acceptRequestId(header(req, 'x-request-id'));
  let reply: RestReply;
  try {
    reply = await route(req, res, pathname, compiled, options, requestId);
  } catch (error) {
    options.onError?.(error);
    reply = apiError(500, 'internal', 'The gateway failed to answer this request');
  }
  send(res, reply, requestId);
}

async function route(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  compiled: CompiledEndpoints,
  options: RestRouteOptions,
  requestId: string,
): Promise<RestReply> {
  const auth = await authenticateRestRequest({ apiKey: header(req, 'x-api-key'), authorization: header(req, 'authorization') }, options.credentials);
  const matches = matchEndpoints(pathname, compiled);
  const chosen = matches.find((m) => m.endpoint.method === req.method);
  if (!auth.ok) {
    // A public endpoint proves the caller another way; everything else says 401 before whether it exists.
    if (chosen?.endpoint.public === true) return answered(chosen.endpoint, new IncomingRestRequest(req, res, chosen.params, ANONYMOUS, requestId));
    return apiError(401, 'unauthorized', auth.message, auth.path, { 'www-authenticate': 'Bearer realm="mcpproxy"' });
  }

  if (matches.length === 0) return apiError(404, 'not_found', `No endpoint ${pathname}`, pathname);
  if (chosen === undefined) {
    const allow = [...new Set(matches.map((m) => m.endpoint.method))].join(', ');
    return apiError(405, 'method_not_allowed', `${req.method ?? '?'} is not allowed on ${pathname}; use ${allow}`, pathname, { allow });
  }
  if (chosen.endpoint.operatorOnly && auth.principal.tier !== 'operator') {
    return apiError(403, 'forbidden', `${chosen.endpoint.method} ${API_PREFIX}${chosen.endpoint.path} needs the admin API key`, pathname);
  }

  return answered(chosen.endpoint, new IncomingRestRequest(req, res, chosen.params, auth.principal, requestId));
}

/** The endpoint's answer, or the 400 for a query parameter it does not take or got twice (query-fault.ts). */
function answered(endpoint: RestEndpoint, request: IncomingRestRequest): Promise<RestReply> | RestReply {
  // request.query is parsed once, here, only for a URL with a query, and kept for the endpoint.
  const fault = queryFault(request.query, endpoint.query ?? NO_QUERY_PARAMETERS);
  return fault === undefined ? endpoint.handle(request) : apiError(400, 'invalid_body', `Query parameter ${fault.name}: ${fault.message}`, fault.name);
}

const NO_QUERY_PARAMETERS: readonly string[] = [];

/**
 * One call's RestRequest. A class, not an object literal with getters: V8 gives every literal
 * with its own accessor closures a hidden class of its own, which on the preflight's hot path
 * meant garbage that outlived its request by a whole young-generation cycle.
 */
class IncomingRestRequest implements RestRequest {
  private parsedQuery: URLSearchParams | undefined;
  private aborted: AbortController | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    readonly params: Readonly<Record<string, string>>,
    readonly principal: RestPrincipal,
    readonly requestId: string,
  ) {}

  get headers(): IncomingHttpHeaders {
    return this.req.headers;
  }

  /** Built on first use, and only for a URL that has a query: most requests (the preflight's among them) have none. */
  get query(): URLSearchParams {
    const url = this.req.url ?? '/';
    return (this.parsedQuery ??= url.includes('?') ? new URL(url, 'http://gateway.invalid').searchParams : NO_QUERY);
  }

  /** Built on first use: only a wait can outlive the client. */
  get signal(): AbortSignal {
    if (this.aborted === undefined) {
      const controller = (this.aborted = new AbortController());
      const res = this.res;
      // 'close' also follows every completed answer; only a client that left early aborts.
      res.once('close', () => {
        if (!res.writableFinished) controller.abort();
      });
    }
    return this.aborted.signal;
  }

  body(): Promise<JsonBody> {
    return readJsonBody(this.req);
  }

  bodyText(): Promise<BodyText> {
    return readBodyText(this.req);
  }
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});
/** Shared by every request without a query; endpoints only read it. */
const NO_QUERY = new URLSearchParams();
/** The caller of a public endpoint without a good credential: an agent that sees nothing. */
const ANONYMOUS: RestPrincipal = Object.freeze({ tier: 'agent', scope: Object.freeze({ allowed_servers: [] }), tokenName: '' });

function matchEndpoints(pathname: string, compiled: CompiledEndpoints): { endpoint: RestEndpoint; params: Readonly<Record<string, string>> }[] {
  // A path without parameters (POST /preflight among them) is one map lookup.
  const literal = compiled.literal.get(pathname);
  if (literal !== undefined) return literal.map((endpoint) => ({ endpoint, params: NO_PARAMS }));
  const segments = pathSegments(pathname, API_PREFIX);
  if (segments === undefined) return [];
  return compiled.templated.flatMap(({ endpoint, template }) => {
    const params = template.match(segments);
    return params === undefined ? [] : [{ endpoint, params }];
  });
}

function send(res: ServerResponse, reply: RestReply, requestId: string): void {
  if (res.headersSent) return;
  if (reply.text !== undefined && reply.headers === undefined) {
    // The preflight's answer: its header lines as one flat list, which node:http takes as it is, instead
    // of objects spread into each other for every answer.
    res.writeHead(reply.status, ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(reply.text)), 'x-request-id', requestId]);
    res.end(reply.text);
    return;
  }
  const headers = { 'x-request-id': requestId, ...reply.headers };
  if (reply.stream !== undefined) {
    res.writeHead(reply.status, headers);
    // The client learns at once that the stream is open, before its first event.
    res.flushHeaders();
    reply.stream(res);
    return;
  }
  if (reply.text !== undefined) {
    res.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(reply.text)), ...headers });
    res.end(reply.text);
    return;
  }
  const body = isApiError(reply) ? { ...(reply.body as object), request_id: requestId } : reply.body;
  sendJson(res, reply.status, body, headers);
}

function isApiError(reply: RestReply): boolean {
  return reply.status >= 400 && typeof reply.body === 'object' && reply.body !== null && 'code' in reply.body;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
