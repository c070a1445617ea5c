import type { Client, Notification } from 'pg';
import type { StoreChange, StoreChangeListener } from './store-coordination.js';

/** The NOTIFY channel every write of shared state announces itself on. */
export const STATE_CHANNEL = 'mcpproxy_state';

export interface ChangeFeedOptions {
  /** A new, unconnected client (the feed holds one connection of its own, outside the pool). */
  readonly connect: () => Client;
  readonly log: (line: string) => void;
  /** How often the feed proves its connection alive while nothing else happens. */
  readonly heartbeatMs?: number;
  /** A heartbeat unanswered this long counts as a lost connection (a silent network partition). */
  readonly heartbeatTimeoutMs?: number;
  /** The first wait before reconnecting; it doubles up to `maxRetryMs`. */
  readonly retryMs?: number;
  readonly maxRetryMs?: number;
  /** The most a re-read after a reconnect may take before the feed counts as up anyway. */
  readonly resyncTimeoutMs?: number;
}

const DEFAULTS = { heartbeatMs: 1000, heartbeatTimeoutMs: 3000, retryMs: 100, maxRetryMs: 2000, resyncTimeoutMs: 10_000 } as const;

/** The text of a NOTIFY payload for a change. */
export function encodeChange(change: StoreChange): string {
  return JSON.stringify(change);
}

/** A payload as a change; one this gateway cannot read (a newer replica's topic) asks for a full re-read. */
export function decodeChange(payload: string | undefined): StoreChange {
  try {
    const value = JSON.parse(payload ?? '') as { topic?: unknown; revoked?: unknown; server?: unknown };
    if (value.topic === 'state') return { topic: 'state' };
    if (value.topic === 'tokens') return typeof value.revoked === 'string' ? { topic: 'tokens', revoked: value.revoked } : { topic: 'tokens' };
    if (value.topic === 'credentials' && typeof value.server === 'string') return { topic: 'credentials', server: value.server };
  } catch {
    // fall through
  }
  return { topic: 'resync' };
}

/**
 * LISTEN on one dedicated connection. It is what makes the store reachable: while the feed is down
 * this gateway could miss another replica's change, so it is unreachable from the first sign of
 * trouble (a connection error or end, an unanswered heartbeat) until it has listened again AND every
 * watcher has re-read the state (`resync`), since a notification sent in between is lost for good.
 * It reconnects on its own with a capped backoff.
 */
export class PostgresChangeFeed {
  private readonly settings: { readonly heartbeatMs: number; readonly heartbeatTimeoutMs: number; readonly retryMs: number; readonly maxRetryMs: number; readonly resyncTimeoutMs: number };
  private readonly listeners = new Set<StoreChangeListener>();
  private client: Client | undefined;
  private up = false;
  private closed = false;
  private retryDelay: number;
  private heartbeat: NodeJS.Timeout | undefined;
  private beating = false;
  private reconnect: NodeJS.Timeout | undefined;

  constructor(private readonly options: ChangeFeedOptions) {
    this.settings = {
      heartbeatMs: options.heartbeatMs ?? DEFAULTS.heartbeatMs,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? DEFAULTS.heartbeatTimeoutMs,
      retryMs: options.retryMs ?? DEFAULTS.retryMs,
      maxRetryMs: options.maxRetryMs ?? DEFAULTS.maxRetryMs,
      resyncTimeoutMs: options.resyncTimeoutMs ?? DEFAULTS.resyncTimeoutMs,
    };
    this.retryDelay = this.settings.retryMs;
  }

  /** Connects and listens; rejects when that fails (the store does not open then). */
  async start(): Promise<void> {
    await this.listen();
    this.up = true;
    this.startHeartbeat();
  }

  reachable(): boolean {
    return this.up;
  }

  watch(listener: StoreChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.up = false;
    clearInterval(this.heartbeat);
    clearTimeout(this.reconnect);
    const client = this.client;
    this.client = undefined;
    this.listeners.clear();
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = this.options.connect();
    // An 'error' without a listener would end the process; every path below handles it.
    client.on('error', (cause: Error) => this.lost(client, cause));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    client.on('notification', (message: Notification) => {
      if (client === this.client && message.channel === STATE_CHANNEL) this.deliver(decodeChange(message.payload));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${STATE_CHANNEL}`);
    } catch (cause) {
      await client.end().catch(() => undefined);
      throw cause;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private lost(client: Client, cause: Error): void {
    if (client !== this.client || this.closed) return;
    this.client = undefined;
    clearInterval(this.heartbeat);
    void client.end().catch(() => undefined);
    if (this.up) {
      this.up = false;
      this.options.log(`store: lost the PostgreSQL change feed (${cause.message}); preflight answers 503 and tool calls are refused until it is back`);
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.reconnect = setTimeout(() => void this.tryReconnect(), this.retryDelay);
    this.reconnect.unref();
    this.retryDelay = Math.min(this.retryDelay * 2, this.settings.maxRetryMs);
  }

  private async tryReconnect(): Promise<void> {
    try {
      await this.listen();
    } catch {
      this.scheduleReconnect();
      return;
    }
    const client = this.client;
    if (client === undefined) return;
    // Anything may have changed while the feed was down: the watchers re-read before this gateway answers again.
    await this.resync();
    if (client !== this.client || this.closed) return;
    this.up = true;
    this.retryDelay = this.settings.retryMs;
    this.startHeartbeat();
    this.options.log('store: the PostgreSQL change feed is back and the state was re-read');
  }

  private async resync(): Promise<void> {
    const rereads = [...this.listeners].map((listener) => Promise.resolve().then(() => listener({ topic: 'resync' })));
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.settings.resyncTimeoutMs);
      timer.unref();
    });
    await Promise.race([Promise.allSettled(rereads), bound]);
    clearTimeout(timer);
  }

  private deliver(change: StoreChange): void {
    for (const listener of [...this.listeners]) {
      try {
        const settled = listener(change);
        if (settled instanceof Promise) settled.catch((cause: unknown) => this.options.log(`store: a change listener failed: ${String(cause)}`));
      } catch (cause) {
        this.options.log(`store: a change listener failed: ${String(cause)}`);
      }
    }
  }

  private startHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => void this.beat(), this.settings.heartbeatMs);
    this.heartbeat.unref();
  }

  private async beat(): Promise<void> {
    const client = this.client;
    if (client === undefined || this.beating) return;
    this.beating = true;
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer to a heartbeat within ${this.settings.heartbeatTimeoutMs} ms`)), this.settings.heartbeatTimeoutMs);
    });
    try {
      await Promise.race([client.query('SELECT 1'), silent]);
    } catch (cause) {
      this.lost(client, cause instanceof Error ? cause : new Error(String(cause)));
    } finally {
      clearTimeout(timer);
      this.beating = false;
    }
  }
}
