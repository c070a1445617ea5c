import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowedAuthorities, checkHostAndOrigin, type AllowedAuthorities, type ConfiguredAuthorities } from './host-origin-guard.js';
import { HEALTHZ_PATH } from './healthz-route.js';
import { requestPath, routeRequest, type HttpRoute } from './http-route.js';
import { jsonRpcErrorBody } from '../mcp/json-rpc-error-response.js';
import { sendJson } from './json-response.js';
import { listenerOrigin, type ListenAddress } from './listen-address.js';

export interface HttpServerOptions {
  readonly listen: ListenAddress;
  readonly routes: readonly HttpRoute[];
  /** Host names and browser origins accepted beyond the loopback names and the listen host. */
  readonly allowed?: ConfiguredAuthorities;
  readonly onError?: (error: unknown) => void;
  /** How long a client may take to send a whole request, headers and body (default REQUEST_TIMEOUT_MS). */
  readonly requestTimeoutMs?: number;
}

/**
 * A request (headers and body) must arrive within this; past it Node answers 408 and closes. It bounds
 * only the request: an SSE response streams on for as long as it likes once the request is in.
 */
export const REQUEST_TIMEOUT_MS = 60_000;
export const HEADERS_TIMEOUT_MS = 30_000;

export interface RunningHttpServer {
  /** Origin of the listener, e.g. http://127.0.0.1:8080 (the real port when 0 was asked for). */
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

/** The gateway's one node:http server: Host/Origin guard first, then the first route that owns the path. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  // Known once listening (the port may be chosen by the OS); until then requests are refused.
  const guard: { allowed?: AllowedAuthorities } = {};
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // Node looks for expired requests on this interval (30 s by default, coarser than a short timeout).
  const connectionsCheckingInterval = Math.min(HEADERS_TIMEOUT_MS, Math.max(100, Math.floor(requestTimeout / 4)));
  const server = createServer({ connectionsCheckingInterval }, (req, res) => {
    void dispatch(req, res, guard.allowed, options).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) sendJson(res, 500, jsonRpcErrorBody(-32603, 'Internal error'));
      else res.destroy();
    });
  });
  // A client that trickles or stalls its request holds a socket (and a file descriptor) until this.
  server.requestTimeout = requestTimeout;
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, requestTimeout);
  await listen(server, options.listen);
  const port = (server.address() as AddressInfo).port;
  guard.allowed = allowedAuthorities(options.listen.host, port, options.allowed);
  return {
    origin: listenerOrigin(options.listen.host, port),
    port,
    close: () => closeServer(server),
  };
}

async function dispatch(
  req: IncomingMessage,
  res: ServerResponse,
  allowed: AllowedAuthorities | undefined,
  options: HttpServerOptions,
): Promise<void> {
  if (allowed === undefined) {
    sendJson(res, 503, jsonRpcErrorBody(-32603, 'Starting'));
    return;
  }
  const pathname = requestPath(req.url);
  // /healthz answers a constant and takes no credential, so a rebound page learns nothing from it,
  // while a load balancer's health check sends the instance's address as Host, which no
  // allowed_hosts entry can name in advance.
  const verdict = pathname === HEALTHZ_PATH ? { ok: true as const } : checkHostAndOrigin(req.headers.host, req.headers.origin, allowed);
  if (!verdict.ok) {
    // REST answers every error with its ApiError body; MCP clients get a JSON-RPC error.
    const body = pathname.startsWith('/api/') ? { code: 'forbidden', message: `Forbidden: ${verdict.message}`, path: 'Host' } : jsonRpcErrorBody(-32000, `Forbidden: ${verdict.message}`);
    sendJson(res, 403, body);
    return;
  }
  if (await routeRequest(options.routes, pathname, req, res)) return;
  sendJson(res, 404, { code: 'not_found', message: `No route for ${pathname}`, path: pathname });
}

function listen(server: Server, address: ListenAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Open SSE streams and idle keep-alive sockets would hold close() forever.
    server.closeAllConnections();
  });
}
