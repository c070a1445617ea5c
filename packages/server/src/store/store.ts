import { createDataDir } from './data-dir-create.js';
import { acquireDataDirLock } from './data-dir-lock.js';
import { openSqliteStore } from './sqlite-store.js';
import { DEFAULT_WAL_LIMIT_BYTES } from './wal-limit.js';

export type ApprovalStatus = 'approved' | 'pending' | 'changed';

/** One tool's approval record (the evaluator's ApprovalRecord plus the server it belongs to). */
export interface StoredApproval {
  readonly server: string;
  readonly tool: string;
  readonly status: ApprovalStatus;
  readonly approved_hash?: string;
  readonly current_hash?: string;
  readonly hash_schema_version: number;
  readonly user_disabled: boolean;
}

/** A server the gateway has seen before. */
export interface KnownServer {
  readonly first_seen_at: string;
  /** When its tools were first approved as a baseline (unquarantine, or first discovery while trusted). */
  readonly baseline_at?: string;
}

/** Run-time operator changes that win over the config file. An absent key = the config decides. */
export interface ServerOverride {
  readonly quarantined?: boolean;
  readonly enabled?: boolean;
}

/** An agent token created at run time. Only the SHA-256 of the secret is ever stored. */
export interface StoredAgentToken {
  readonly name: string;
  readonly token_sha256: string;
  readonly allowed_servers: readonly string[];
  readonly profile?: string;
  readonly created_at: string;
  readonly revoked: boolean;
}

export type NewAgentToken = Omit<StoredAgentToken, 'revoked' | 'created_at'> & { readonly created_at?: string };

/** One activity log record as written (the schema's ActivityRecord fits this shape). */
export interface ActivityInput {
  readonly type: string;
  /** ISO 8601 date-time. */
  readonly timestamp: string;
  readonly status: string;
  readonly surface?: string;
  readonly request_id: string;
  /** Any JSON object (a typed record's metadata interface fits without copying). */
  readonly metadata: object;
}

/** A record as appendActivity settles it: what was given, with its id. */
export interface AppendedActivity extends ActivityInput {
  readonly id: number;
}

export interface StoredActivity extends ActivityInput {
  readonly id: number;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export interface ActivityQuery {
  readonly type?: string;
  readonly request_id?: string;
  /** Inclusive lower bound, ISO 8601. */
  readonly since?: string;
  /** Inclusive upper bound, ISO 8601. */
  readonly until?: string;
  /** Default 100, at most 1000. */
  readonly limit?: number;
  readonly offset?: number;
}

export interface ActivityRetention {
  readonly maxRecords: number;
  readonly maxAgeDays: number;
}

export type CreateTokenResult = { ok: true; token: StoredAgentToken } | { ok: false; code: 'token_name_taken' | 'token_secret_taken' };

/**
 * The gateway's persistent state. Every method is async so that a shared database (PostgreSQL,
 * for several replicas) can implement the same interface; the SQLite store answers at once.
 * A method that cannot reach its storage rejects (the caller maps that to a 503).
 */
export interface Store {
  readonly dataDir: string;

  listApprovals(): Promise<StoredApproval[]>;
  /** Inserts or replaces these records in one transaction. Their servers must be known. */
  saveApprovals(records: readonly StoredApproval[]): Promise<void>;

  listServerOverrides(): Promise<Map<string, ServerOverride>>;
  /** Replaces the server's override; an empty override removes it. */
  setServerOverride(server: string, override: ServerOverride): Promise<void>;

  /** Servers the gateway has seen before (a new one starts quarantined while tool_quarantine is on). */
  listKnownServers(): Promise<Map<string, KnownServer>>;
  markServersKnown(servers: readonly string[]): Promise<void>;
  /** Records that the server's tool baseline was approved (tools appearing later are pending). */
  markBaselineApproved(server: string): Promise<void>;

  createAgentToken(token: NewAgentToken): Promise<CreateTokenResult>;
  listAgentTokens(): Promise<StoredAgentToken[]>;
  findAgentTokenBySha256(tokenSha256: string): Promise<StoredAgentToken | undefined>;
  /** true when a token of that name existed and was not yet revoked. */
  revokeAgentToken(name: string): Promise<boolean>;

  /** Bearer credentials for HTTP upstreams (`mcpproxy auth login`), kept out of the config file. */
  getUpstreamCredential(server: string): Promise<string | undefined>;
  setUpstreamCredential(server: string, bearerToken: string): Promise<void>;
  deleteUpstreamCredential(server: string): Promise<boolean>;

  appendActivity(record: ActivityInput): Promise<AppendedActivity>;
  /** Newest first (by timestamp, then id). */
  queryActivity(query: ActivityQuery): Promise<StoredActivity[]>;
  /**
   * Deletes records older than maxAgeDays and beyond the newest maxRecords; returns how many. The
   * store keeps the count limit of the last call and applies it as it writes too (SQLite: in steps of
   * a tenth of it, see segmentRecords), so the log stays bounded between two full passes.
   */
  pruneActivity(retention: ActivityRetention, now?: Date): Promise<number>;

  /** Closes the database and releases the data-dir lock. Idempotent. */
  close(): void;
}

export interface StoreOpenError {
  code: 'data_dir_locked' | 'store_open_failed';
  message: string;
}

export const STORE_FILE_NAME = 'mcpproxy.db';

/**
 * Opens (creating on first use) the store in `dataDir`: takes the data-dir lock first, so a
 * second gateway on the same directory is refused before it touches the database.
 */
export function openStore(
  dataDir: string,
  { walLimitBytes = DEFAULT_WAL_LIMIT_BYTES }: { readonly walLimitBytes?: number } = {},
): { ok: true; store: Store } | { ok: false; error: StoreOpenError } {
  const created = createDataDir(dataDir);
  if (!created.ok) return { ok: false, error: { code: 'store_open_failed', message: created.message } };
  const locked = acquireDataDirLock(dataDir);
  if (!locked.ok) {
    const code = locked.error.code === 'data_dir_locked' ? 'data_dir_locked' : 'store_open_failed';
    return { ok: false, error: { code, message: locked.error.message } };
  }
  const opened = openSqliteStore(dataDir, STORE_FILE_NAME, locked.lock, walLimitBytes);
  if (!opened.ok) {
    locked.lock.release();
    return { ok: false, error: { code: 'store_open_failed', message: opened.message } };
  }
  return { ok: true, store: opened.store };
}
