import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { WebStandardStreamableHTTPServerTransport, createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { Server } from '@modelcontextprotocol/server';
import { announceContentChanges, type FixtureContentChange } from './fixture-content.js';
import type { FixtureOverload } from './fixture-overload.js';
import type { MessageCounter } from './message-counter.js';
import type { StreamCounter } from './stream-counter.js';

export interface FixtureHttpOptions {
  readonly port: number;
  readonly requireToken?: string;
  /** Resolves when the fixture may answer (the start delay). */
  readonly ready: Promise<void>;
  /** Told of every event stream opened to a client. */
  readonly streams?: StreamCounter;
  /** The current overload switch: an HTTP one answers tools/call POSTs with its status. */
  readonly overload?: () => FixtureOverload;
}

export interface FixtureHttp {
  readonly url: string;
  /** Sends tools/list_changed to every live 2025-era session and every 2026 subscription. */
  notifyToolsChanged(): void;
  /** Tells every live 2025-era session and every 2026 subscription what a reload changed in resources and prompts. */
  announceContentChanges(changes: readonly FixtureContentChange[]): void;
  close(): Promise<void>;
}

/**
 * Streamable HTTP at http://127.0.0.1:<port>/mcp: 2026-07-28 requests through createMcpHandler,
 * 2025-era traffic through real sessions (one server per Mcp-Session-Id), so list_changed
 * reaches a legacy client on its GET stream.
 */
export async function serveFixtureHttp(
  createServer: () => Server,
  counter: MessageCounter,
  options: FixtureHttpOptions,
): Promise<FixtureHttp> {
  const sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: Server }>();
  const modern = createMcpHandler(() => createServer(), { legacy: 'reject' });

  async function legacy(request: Request, parsedBody: unknown): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      if (session === undefined) return jsonError(404, -32001, 'Session not found');
      return session.transport.handleRequest(request, parsedBody === undefined ? {} : { parsedBody });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    const server = createServer();
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request, parsedBody === undefined ? {} : { parsedBody });
  }

  async function fetch(request: Request): Promise<Response> {
    await options.ready;
    if (options.requireToken !== undefined && request.headers.get('authorization') !== `Bearer ${options.requireToken}`) {
      return new Response(JSON.stringify({ error: 'unauthorized' }), {
        status: 401,
        headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="mcp-fixture", error="invalid_token"' },
      });
    }
    let parsedBody: unknown;
    if (request.method === 'POST') {
      const text = await request.text();
      try {
        parsedBody = JSON.parse(text) as unknown;
      } catch {
        counter.addBody(undefined);
        return jsonError(400, -32700, 'Parse error');
      }
      counter.addBody(parsedBody);
      const overload = options.overload?.();
      if (overload?.kind === 'http' && isToolCall(parsedBody)) {
        return new Response(JSON.stringify({ error: 'overloaded' }), {
          status: overload.status,
          headers: { 'content-type': 'application/json', ...(overload.retryAfter === undefined ? {} : { 'retry-after': overload.retryAfter }) },
        });
      }
    }
    const response = (await isLegacyRequest(request, parsedBody)) ? await legacy(request, parsedBody) : await modern.fetch(request, parsedBody === undefined ? {} : { parsedBody });
    if (opensStream(request, parsedBody, response)) options.streams?.opened();
    return response;
  }

  const handler = toNodeHandler({ fetch });
  const http: HttpServer = createHttpServer((req, res) => {
    if (!(req.url ?? '').startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    // IncomingMessage declares `method?: string | undefined`; the adapter reads it the same way.
    // A handler that fails answers 500 instead of ending the fixture with an unhandled rejection.
    handler(req as NodeIncomingMessageLike, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    notifyToolsChanged() {
      for (const { server } of sessions.values()) void server.sendToolListChanged().catch(() => undefined);
      modern.notify.toolsChanged();
    },
    announceContentChanges(changes) {
      for (const { server } of sessions.values()) announceContentChanges(server, changes);
      for (const change of changes) {
        if (change.kind === 'resources_list') modern.notify.resourcesChanged();
        else if (change.kind === 'prompts_list') modern.notify.promptsChanged();
        else modern.notify.resourceUpdated(change.uri);
      }
    },
    async close() {
      await Promise.allSettled([...sessions.values()].map(({ transport }) => transport.close()));
      await modern.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** A GET stream of a session, or a subscriptions/listen stream: one that carries notifications until it ends. */
function opensStream(request: Request, parsedBody: unknown, response: Response): boolean {
  if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return false;
  if (request.method === 'GET') return true;
  const method = typeof parsedBody === 'object' && parsedBody !== null && !Array.isArray(parsedBody) ? (parsedBody as { method?: unknown }).method : undefined;
  return method === 'subscriptions/listen';
}

function isToolCall(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && (body as { method?: unknown }).method === 'tools/call';
}

function jsonError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}
