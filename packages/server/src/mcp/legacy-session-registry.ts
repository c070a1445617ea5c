import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/server';
import { jsonRpcError } from './json-rpc-error-response.js';
import { identityAuthInfo, type McpIdentity, type McpSessionContext } from './mcp-identity.js';
import { EventStreamUpgradeTransport } from './event-stream-upgrade-transport.js';
import { PreparedJsonSessionTransport } from './prepared-json-session-transport.js';

export interface LegacySession {
  readonly id: string;
  readonly identity: McpIdentity;
  readonly server: Server;
}

export interface LegacySessionOptions {
  readonly createServer: (context: McpSessionContext) => Server;
  /** Sessions beyond this evict the least recently used one of the identity that holds the most. */
  readonly maxSessions: number;
  /** A session unused this long is closed; its client re-initializes on the 404. */
  readonly idleMs: number;
  readonly onError?: (error: Error) => void;
}

interface Entry extends LegacySession {
  readonly transport: EventStreamUpgradeTransport;
  lastSeen: number;
}

/**
 * 2025-11-25 Streamable HTTP with real sessions: one server instance per Mcp-Session-Id, so what the
 * client declared at initialize (its experimental capabilities) is remembered for the session's
 * later requests, and list_changed has somewhere to go.
 */
export class LegacySessionRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: LegacySessionOptions) {
    this.sweeper = setInterval(() => this.sweep(Date.now()), Math.min(options.idleMs, 60_000));
    this.sweeper.unref();
  }

  /** `parsedBody`: the POST's body, when the caller has read and parsed it already. */
  async handle(request: Request, identity: McpIdentity, parsedBody?: unknown): Promise<Response> {
    if (this.closed) return jsonRpcError(503, -32603, 'Gateway is shutting down');
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) return this.handleInSession(sessionId, request, identity, parsedBody);
    return this.open(request, identity, parsedBody);
  }

  sessions(): Iterable<LegacySession> {
    return this.entries.values();
  }

  /** Closes every session (and so its GET stream) opened with this agent token; how many there were. */
  closeToken(tokenName: string): number {
    const matching = [...this.entries.values()].filter((entry) => entry.identity.tokenName === tokenName);
    for (const entry of matching) this.evict(entry);
    return matching.length;
  }

  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(entries.map((entry) => this.dispose(entry)));
  }

  private async handleInSession(sessionId: string, request: Request, identity: McpIdentity, parsedBody: unknown): Promise<Response> {
    const entry = this.entries.get(sessionId);
    // A session answers only the credential and path that opened it; anything else looks like no session at all.
    if (entry === undefined || entry.identity.key !== identity.key) {
      return jsonRpcError(404, -32001, 'Session not found');
    }
    entry.lastSeen = Date.now();
    return entry.transport.handleRequest(request, { authInfo: identityAuthInfo(entry.identity), ...withParsedBody(parsedBody) });
  }

  private async open(request: Request, identity: McpIdentity, parsedBody: unknown): Promise<Response> {
    let opened: Entry | undefined;
    const server = this.options.createServer({ identity, era: 'legacy' });
    // POSTs are answered with one JSON body (a tools/list page as bytes prepared once per published
    // state), or an event stream when a forwarded call relates messages to them (progress, a request
    // on an upstream's behalf); other notifications go out on the session's GET stream.
    const transport = new EventStreamUpgradeTransport(
      new PreparedJsonSessionTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          opened = { id, identity, server, transport, lastSeen: Date.now() };
          this.admit(opened);
        },
        onsessionclosed: (id) => this.forget(id),
      }),
    );
    transport.onerror = (error) => this.options.onError?.(error);
    try {
      await server.connect(transport);
      return await transport.handleRequest(request, { authInfo: identityAuthInfo(identity), ...withParsedBody(parsedBody) });
    } finally {
      // No session came of it (not an initialize, a rejected one, or a failure): nothing may stay behind.
      if (opened === undefined) await server.close().catch(() => undefined);
    }
  }

  /**
   * Over the cap, the session to go is the least recently used one of the identity (token, or the
   * anonymous caller) that holds the most sessions: whoever opens sessions in a flood evicts its own,
   * not those of the other agents.
   */
  private admit(entry: Entry): void {
    this.entries.set(entry.id, entry);
    if (this.entries.size <= this.options.maxSessions) return;
    const held = new Map<string, number>();
    for (const candidate of this.entries.values()) held.set(candidate.identity.key, (held.get(candidate.identity.key) ?? 0) + 1);
    const most = Math.max(...held.values());
    let oldest: Entry | undefined;
    for (const candidate of this.entries.values()) {
      if (candidate === entry || held.get(candidate.identity.key) !== most) continue;
      if (oldest === undefined || candidate.lastSeen < oldest.lastSeen) oldest = candidate;
    }
    if (oldest !== undefined) this.evict(oldest);
  }

  private sweep(now: number): void {
    for (const entry of this.entries.values()) {
      if (now - entry.lastSeen > this.options.idleMs) this.evict(entry);
    }
  }

  private evict(entry: Entry): void {
    this.entries.delete(entry.id);
    void this.dispose(entry);
  }

  private forget(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    void this.dispose(entry);
  }

  private async dispose(entry: Entry): Promise<void> {
    await entry.server.close().catch((error: unknown) => this.options.onError?.(asError(error)));
  }
}

function withParsedBody(parsedBody: unknown): { parsedBody?: unknown } {
  return parsedBody === undefined ? {} : { parsedBody };
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
