import type { Duplex } from 'node:stream';
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { GatewayRuntime } from '../state/gateway-runtime.js';
import { relayCatalogChanges } from './catalog-notifier.js';
import { createGatewayMcpServer, gatewayListing, type GatewayMcpOptions } from './gateway-mcp-server.js';
import type { McpIdentity } from './mcp-identity.js';
import { notifyToolListChanges, type NotifiableSession } from './tools-changed-notifier.js';

// The local process that spawned the gateway (or a second gateway relaying for its own client) is
// the principal: every configured server is in scope.
const STDIO_IDENTITY: McpIdentity = { key: 'stdio', scope: { allowed_servers: '*' } };

/**
 * MCP sessions in stdio framing: the gateway's own stdin/stdout (`serve --stdio`) and the connections
 * a second stdio gateway relays over the local socket. Each is served like the other, and each hears
 * notifications/tools/list_changed when its listing changes (a 2026-07-28 one on its open
 * subscriptions/listen, which the SDK's stdio entry routes).
 */
export class StdioSessions {
  private readonly sessions = new Set<NotifiableSession>();
  private readonly handles = new Set<StdioServerHandle>();
  private readonly unsubscribe: () => void;
  private readonly stopCatalog: () => void;

  constructor(
    private readonly surface: GatewayMcpOptions,
    runtime: Pick<GatewayRuntime, 'current' | 'subscribe' | 'onUpstreamNotification'>,
    private readonly onError: (error: Error) => void,
  ) {
    this.unsubscribe = notifyToolListChanges(runtime, gatewayListing, { sessions: () => this.sessions }, onError);
    // Resource and prompt list changes, resource updates and log messages of the upstreams.
    const subscriptions = surface.resourceSubscriptions;
    this.stopCatalog = subscriptions === undefined ? () => undefined : relayCatalogChanges(runtime, { sessions: () => this.sessions }, subscriptions, onError);
  }

  /** Serves MCP on this process's stdin/stdout. */
  serveProcess(): void {
    this.handles.add(serveStdio((ctx) => this.session(ctx.era), { onerror: this.onError }));
  }

  /** Serves one relayed connection until it closes. */
  serveConnection(connection: Duplex): void {
    const handle = serveStdio((ctx) => this.session(ctx.era), { transport: new StdioServerTransport(connection, connection), onerror: this.onError });
    this.handles.add(handle);
    const report = (error: unknown) => this.onError(error instanceof Error ? error : new Error(String(error)));
    // The relaying side ending its input ends the session, as end-of-file on stdin does; the socket is
    // half-open (HTTP servers allow that), so our side is ended here or the relay would wait for ever.
    connection.once('end', () => {
      void handle.close().catch(report).finally(() => connection.end());
    });
    connection.once('close', () => {
      this.handles.delete(handle);
      handle.close().catch(report);
    });
  }

  async close(): Promise<void> {
    this.unsubscribe();
    this.stopCatalog();
    await Promise.allSettled([...this.handles].map((handle) => handle.close()));
    this.handles.clear();
  }

  private session(era: 'legacy' | 'modern'): Server {
    const server = createGatewayMcpServer(this.surface, { identity: STDIO_IDENTITY, era });
    const session = { identity: STDIO_IDENTITY, server };
    this.sessions.add(session);
    // The server's own onclose (set by createGatewayMcpServer) releases what the session held.
    const closed = server.onclose;
    server.onclose = () => {
      closed?.();
      this.sessions.delete(session);
    };
    return server;
  }
}
