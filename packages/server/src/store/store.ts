import { createDataDir } from './data-dir-create.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
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
  /**
   * The definition approved with `approved_hash`, as JSON text (a ToolDefinition), so an operator can
   * compare it with a changed one. saveApprovals writes it when given; when absent it keeps the stored
   * one while `approved_hash` stays the same and clears it when the hash moves. listApprovals leaves
   * it out (read it with getApprovedDefinition).
   */
  readonly approved_definition?: string;
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
  /** Tool calls to this server, and preflights with an ID of this server (the part before the first ':', as sent). */
  readonly server?: string;
  /** Preflights with this set verdict (tool calls have none). */
  readonly verdict?: string;
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

/** A JSON object as the store keeps it: written and read back whole. */
export type JsonObject = Readonly<Record<string, unknown>>;

/**
 * An HTTP upstream's OAuth state (`mcpproxy auth login <server>`). The gateway reads and writes it
 * whole; each part is a JSON object the store keeps as it is given. Tokens are secrets: a store
 * never logs a record or puts it in an error message.
 */
export interface UpstreamOAuthRecord {
  /** The client the gateway registered dynamically (RFC 7591), absent with a configured client_id. */
  readonly client?: JsonObject;
  /** The tokens the authorization server issued (access and refresh token, scope, lifetime). */
  readonly tokens?: JsonObject;
  /** When the access token expires, in milliseconds since the epoch (absent: no lifetime given). */
  readonly tokens_expire_at?: number;
  /** What discovery found: the protected-resource and authorization-server metadata. */
  readonly discovery?: JsonObject;
  /** A login started and not yet finished: the SHA-256 of its state, its PKCE verifier, its expiry. */
  readonly pending?: JsonObject;
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
  /**
   * The JSON text of the definition stored with the tool's current approved hash (see
   * StoredApproval.approved_definition); undefined when there is no record or none was recorded.
   */
  getApprovedDefinition(server: string, tool: string): Promise<string | undefined>;

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

  /** The server's OAuth state, or undefined when none is stored. */
  getUpstreamOAuth(server: string): Promise<UpstreamOAuthRecord | undefined>;
  /** Replaces the server's OAuth state whole; a record without any part deletes it. */
  setUpstreamOAuth(server: string, record: UpstreamOAuthRecord): Promise<void>;

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

/** Creates the data directory if needed and takes its lock for this process (every store kind does). */
export function takeDataDir(dataDir: string): { ok: true; lock: DataDirLock } | { ok: false; error: StoreOpenError } {
  const created = createDataDir(dataDir);
  if (!created.ok) return { ok: false, error: { code: 'store_open_failed', message: created.message } };
  const locked = acquireDataDirLock(dataDir);
  if (!locked.ok) {
    const code = locked.error.code === 'data_dir_locked' ? 'data_dir_locked' : 'store_open_failed';
    return { ok: false, error: { code, message: locked.error.message } };
  }
  return locked;
}

/**
 * Opens (creating on first use) the store in `dataDir`: takes the data-dir lock first, so a
 * second gateway on the same directory is refused before it touches the database.
 */
export function openStore(
  dataDir: string,
  {
    walLimitBytes = DEFAULT_WAL_LIMIT_BYTES,
    commitClock,
  }: {
    readonly walLimitBytes?: number;
    /** Milliseconds of a monotonic clock, timing the group commit's gathering window (tests give their own). */
    readonly commitClock?: () => number;
  } = {},
): { ok: true; store: Store } | { ok: false; error: StoreOpenError } {
  const locked = takeDataDir(dataDir);
  if (!locked.ok) return locked;
  const opened = openSqliteStore(dataDir, STORE_FILE_NAME, locked.lock, walLimitBytes, commitClock);
  if (!opened.ok) {
    locked.lock.release();
    return { ok: false, error: { code: 'store_open_failed', message: opened.message } };
  }
  return { ok: true, store: opened.store };
}
