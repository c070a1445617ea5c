import type { ClientConfig } from 'pg';
import type { DataDirLock } from './data-dir-lock.js';
import { PostgresChangeFeed } from './postgres-change-feed.js';
import { migratePostgres } from './postgres-migrate.js';
import { PostgresStore } from './postgres-store.js';
import { redactedUrl } from './postgres-url.js';

export interface PostgresStoreOptions {
  /** The connection URL (a secret: messages show redactedUrl of it). */
  readonly url: string;
  readonly poolSize: number;
  readonly dataDir: string;
  /** Taken by the caller; released when the store has closed, or at once when opening fails. */
  readonly lock: DataDirLock;
  readonly log: (line: string) => void;
}

/** A connection that cannot be made within this is a failure to open (or, later, a failed query). */
const CONNECT_TIMEOUT_MS = 5000;
/** A query unanswered this long fails (503 for its request) instead of holding it for ever. */
const QUERY_TIMEOUT_MS = 10_000;
/** Connections that hold advisory locks for exclusive sections. */
const LOCK_POOL_SIZE = 4;

/**
 * Connects, brings the schema up to date, starts the change feed, and returns the store. The `pg`
 * driver is loaded here, on first use, so a gateway on SQLite never loads it.
 */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<{ ok: true; store: PostgresStore } | { ok: false; message: string }> {
  const where = redactedUrl(options.url);
  const { default: pg } = await import('pg');
  const base: ClientConfig = {
    connectionString: options.url,
    application_name: 'mcpproxy',
    keepAlive: true,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  };
  const migrator = new pg.Client(base);
  migrator.on('error', () => undefined);
  try {
    await migrator.connect();
    const migrated = await migratePostgres(migrator);
    if (!migrated.ok) return { ok: false, message: `${where}: ${migrated.message}` };
  } catch (cause) {
    return { ok: false, message: `cannot open the store ${where}: ${cause instanceof Error ? cause.message : String(cause)}` };
  } finally {
    await migrator.end().catch(() => undefined);
  }

  const feed = new PostgresChangeFeed({ connect: () => new pg.Client(base), log: options.log });
  try {
    await feed.start();
  } catch (cause) {
    return { ok: false, message: `cannot listen for changes on the store ${where}: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
  const pool = new pg.Pool({ ...base, max: options.poolSize, idleTimeoutMillis: 30_000, query_timeout: QUERY_TIMEOUT_MS });
  const lockPool = new pg.Pool({ ...base, max: LOCK_POOL_SIZE, idleTimeoutMillis: 10_000 });
  // An idle connection that dies (the database restarted) is dropped from its pool and the next query
  // opens a new one; the change feed reports the outage once, so these stay quiet.
  pool.on('error', () => undefined);
  lockPool.on('error', () => undefined);
  return { ok: true, store: new PostgresStore({ dataDir: options.dataDir, lock: options.lock, pool, lockPool, feed }) };
}
