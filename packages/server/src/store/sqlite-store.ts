import { join } from 'node:path';
import type { Database, Statement } from 'better-sqlite3';
import { jsonOf } from '../json/frozen-json.js';
import { ActivitySegments, type ActivityFilter, type ActivityRow, type SegmentRecord } from './activity-segments.js';
import { CommitGathering } from './commit-gathering.js';
import type { DataDirLock } from './data-dir-lock.js';
import { migrate } from './migrations.js';
import { AUTOCHECKPOINT_PAGES, connectSqlite } from './sqlite-connection.js';
import { startStoreThread, type StoreThread } from './store-thread.js';
import { COPY_MESSAGE, isFoldReply, WAL_HEADER_BYTES, WalLimit, type FoldMode, type FoldRequest } from './wal-limit.js';
import { WalLogSize } from './wal-log-size.js';
import { WalSizeEstimate } from './wal-size-estimate.js';
import type {
  ActivityInput,
  AppendedActivity,
  ActivityQuery,
  ActivityRetention,
  CreateTokenResult,
  KnownServer,
  NewAgentToken,
  ServerOverride,
  StoredActivity,
  StoredAgentToken,
  StoredApproval,
  Store,
  UpstreamOAuthRecord,
} from './store.js';

const DAY_MS = 86_400_000;
const DEFAULT_ACTIVITY_LIMIT = 100;
const MAX_ACTIVITY_LIMIT = 1000;
/** How often the checkpoint thread folds the WAL back into the database. */
const CHECKPOINT_INTERVAL_MS = 1000;
/**
 * Activity records committed before the store starts its checkpoint thread. A thread costs ~10 MiB of
 * resident memory (its own V8 isolate); a gateway that answers a preflight now and then never needs
 * one, while one under a steady stream of preflights reaches this within seconds, and from then on no
 * checkpoint stalls the event loop.
 */
export const CHECKPOINT_THREAD_AFTER_RECORDS = 10_000;

export type { ActivityRow } from './activity-segments.js';

/** The rows as the store reads them (the PostgreSQL store selects the same shapes and maps them with these). */
export interface ApprovalRow {
  server: string;
  tool: string;
  status: StoredApproval['status'];
  approved_hash: string | null;
  current_hash: string | null;
  hash_schema_version: number;
  user_disabled: number;
}
export interface TokenRow {
  name: string;
  token_sha256: string;
  allowed_servers: string;
  profile: string | null;
  created_at: string;
  revoked_at: string | null;
}
/** A record waiting for its group commit: its columns as the segments write them, and its caller. */
interface PendingActivity extends SegmentRecord {
  readonly record: ActivityInput;
  resolve(appended: AppendedActivity): void;
  reject(cause: unknown): void;
}

export type SqliteOpenResult = { ok: true; store: Store } | { ok: false; message: string };

export function openSqliteStore(dataDir: string, fileName: string, lock: DataDirLock, walLimitBytes: number, commitClock?: () => number): SqliteOpenResult {
  const path = join(dataDir, fileName);
  let db: Database | undefined;
  try {
    db = connectSqlite(path);
    const migrated = migrate(db);
    if (!migrated.ok) {
      db.close();
      return { ok: false, message: `${path}: ${migrated.message}` };
    }
    return { ok: true, store: new SqliteStore(dataDir, path, db, lock, walLimitBytes, commitClock) };
  } catch (cause) {
    db?.close();
    return { ok: false, message: `cannot open the store ${path}: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
}

/**
 * The embedded store: one SQLite file in WAL mode. better-sqlite3 is synchronous; the async
 * interface is for other implementations, so every method here settles at once (activity records
 * at the end of the event-loop turn). Checkpoints run on a thread of their own.
 */
class SqliteStore implements Store {
  private closed = false;
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly activity: ActivitySegments;
  private readonly pendingActivity: PendingActivity[] = [];
  private checkpointer: StoreThread | undefined;
  private recordsCommitted = 0;
  /**
   * The count limit of the last retention pass, applied as records are written: whenever the newest
   * segment holds its share (a tenth of the limit, 1,000 at the default), the next one starts and the
   * oldest segments the limit no longer reaches are dropped. The runtime's full pass (age and count,
   * exact) runs hourly; a busy gateway writes millions of records in an hour.
   */
  private countLimit: number | undefined;
  private readonly walLimit: WalLimit;
  /** The log's length, read from the WAL index. */
  private readonly walLog: WalLogSize;
  /** The log's size for the bound's checks before each commit, measured only near a threshold. */
  private readonly walSize: WalSizeEstimate;
  /** SQLite's automatic checkpoint on this connection while no thread checkpoints (pages). */
  private readonly autocheckpointPages: number;
  /** Set while the checkpoint thread folds the log (how): activity commits wait for it. */
  private folding: FoldMode | undefined;
  /** When a commit waits a turn to carry more records (commit-gathering.ts). */
  private readonly gathering: CommitGathering;
  private threadFailed = false;
  /** Copies asked of the checkpoint thread since the last fold. */
  private copies = 0;
  private readonly foldWaiters: (() => void)[] = [];
  private lastTimestamp = '';
  private lastTsMs = Number.NaN;

  constructor(
    readonly dataDir: string,
    private readonly path: string,
    private readonly db: Database,
    private readonly lock: DataDirLock,
    walLimitBytes: number,
    commitClock?: () => number,
  ) {
    this.gathering = new CommitGathering(commitClock);
    this.statements = prepareStatements(db);
    this.activity = new ActivitySegments(db);
    this.walLimit = new WalLimit(walLimitBytes, db.pragma('page_size', { simple: true }) as number);
    this.walLog = new WalLogSize(path, this.walLimit.frameBytes);
    const totalChanges = db.prepare('SELECT total_changes()').pluck();
    this.walSize = new WalSizeEstimate(() => this.walLog.bytes(), () => totalChanges.get() as number, this.walLimit.frameBytes, WAL_HEADER_BYTES);
    this.autocheckpointPages = Math.min(AUTOCHECKPOINT_PAGES, this.walLimit.foldAtFrames);
    db.pragma(`wal_autocheckpoint = ${this.autocheckpointPages}`);
  }

  /** Hands checkpoints to a thread of their own once the activity log is written steadily. */
  private startCheckpointThread(): void {
    if (this.checkpointer !== undefined || this.closed) return;
    const thread = startStoreThread('wal-checkpoint-thread', { path: this.path, intervalMs: CHECKPOINT_INTERVAL_MS });
    this.checkpointer = thread;
    this.db.pragma('wal_autocheckpoint = 0');
    thread.port.on('message', (message: unknown) => {
      if (isFoldReply(message)) this.folded(message.folded);
    });
    // A listener refs the port again: the thread still must not keep the process alive.
    thread.port.unref();
    // A thread that cannot run gives checkpoints back to this connection.
    const failed = () => {
      if (this.closed || this.threadFailed) return;
      this.threadFailed = true;
      this.db.pragma(`wal_autocheckpoint = ${this.autocheckpointPages}`);
      if (this.folding !== undefined) this.folded(this.foldHere(this.folding));
    };
    thread.worker.on('error', failed);
    thread.worker.on('exit', failed);
  }

  /**
   * Folds the log into the database before more activity is committed: on the checkpoint thread
   * (commits wait, the event loop goes on), or here when there is none yet (it starts one, since a
   * store that filled most of its log is written steadily).
   */
  private fold(): void {
    if (this.folding !== undefined) return;
    const mode = this.walLog.foldMode();
    if (this.checkpointer === undefined || this.threadFailed) {
      const complete = this.foldHere(mode);
      this.startCheckpointThread();
      this.folding = mode;
      setImmediate(() => this.folded(complete));
      return;
    }
    this.folding = mode;
    // Records wait for the answer: the process must not end in between (the port is unref'd otherwise).
    this.checkpointer.port.ref();
    this.checkpointer.port.postMessage({ fold: mode } satisfies FoldRequest);
  }

  private copyAhead(): void {
    this.copies++;
    if (this.checkpointer !== undefined && !this.threadFailed) this.checkpointer.port.postMessage(COPY_MESSAGE);
  }

  /** A fold's checkpoint on this connection; whether it was complete (WalLogSize.folded). */
  private foldHere(mode: FoldMode): boolean {
    try {
      return (this.db.pragma(`wal_checkpoint(${mode})`) as { busy: number }[])[0]?.busy === 0;
    } catch {
      // a transient I/O error: the log is still full, so the next flush folds again
      return false;
    }
  }

  private folded(complete: boolean): void {
    if (this.folding === undefined) return;
    this.walLog.folded(this.folding, complete);
    this.folding = undefined;
    this.copies = 0;
    this.checkpointer?.port.unref();
    for (const resume of this.foldWaiters.splice(0)) resume();
    if (!this.closed) this.flushActivity();
  }

  /** Whether the log, read now, has reached the fold point (WalLimit.foldAtBytes). */
  private logAtFold(): boolean {
    return this.walLog.bytes() >= this.walLimit.foldAtBytes;
  }

  /** Resolves once the log has room for another commit (at once when it has). */
  private async roomInLog(): Promise<void> {
    while (!this.closed && (this.folding !== undefined || this.logAtFold())) {
      const done = new Promise<void>((resolve) => this.foldWaiters.push(resolve));
      this.fold();
      await done;
    }
  }

  async listApprovals(): Promise<StoredApproval[]> {
    return (this.statements.listApprovals.all() as ApprovalRow[]).map(approvalFromRow);
  }

  async saveApprovals(records: readonly StoredApproval[]): Promise<void> {
    const now = new Date().toISOString();
    const upsert = this.statements.upsertApproval;
    this.db.transaction(() => {
      for (const record of records) {
        upsert.run({
          server: record.server,
          tool: record.tool,
          status: record.status,
          approved_hash: record.approved_hash ?? null,
          current_hash: record.current_hash ?? null,
          hash_schema_version: record.hash_schema_version,
          user_disabled: record.user_disabled ? 1 : 0,
          approved_definition: record.approved_definition ?? null,
          updated_at: now,
        });
      }
    })();
  }

  async getApprovedDefinition(server: string, tool: string): Promise<string | undefined> {
    const row = this.statements.approvedDefinition.get(server, tool) as { approved_definition: string | null } | undefined;
    return row?.approved_definition ?? undefined;
  }

  async listServerOverrides(): Promise<Map<string, ServerOverride>> {
    const rows = this.statements.listOverrides.all() as { server: string; quarantined: number | null; enabled: number | null }[];
    return new Map(
      rows.map((row) => [
        row.server,
        {
          ...(row.quarantined === null ? {} : { quarantined: row.quarantined === 1 }),
          ...(row.enabled === null ? {} : { enabled: row.enabled === 1 }),
        },
      ]),
    );
  }

  async setServerOverride(server: string, override: ServerOverride): Promise<void> {
    if (override.quarantined === undefined && override.enabled === undefined) {
      this.statements.deleteOverride.run(server);
      return;
    }
    this.statements.upsertOverride.run({
      server,
      quarantined: override.quarantined === undefined ? null : Number(override.quarantined),
      enabled: override.enabled === undefined ? null : Number(override.enabled),
      updated_at: new Date().toISOString(),
    });
  }

  async listKnownServers(): Promise<Map<string, KnownServer>> {
    const rows = this.statements.listKnown.all() as { server: string; first_seen_at: string; baseline_at: string | null }[];
    return new Map(
      rows.map((row) => [row.server, { first_seen_at: row.first_seen_at, ...(row.baseline_at === null ? {} : { baseline_at: row.baseline_at }) }]),
    );
  }

  async markServersKnown(servers: readonly string[]): Promise<void> {
    const now = new Date().toISOString();
    this.db.transaction(() => {
      for (const server of servers) this.statements.insertKnown.run(server, now);
    })();
  }

  async markBaselineApproved(server: string): Promise<void> {
    const now = new Date().toISOString();
    this.statements.insertKnown.run(server, now);
    this.statements.markBaseline.run(now, server);
  }

  async createAgentToken(token: NewAgentToken): Promise<CreateTokenResult> {
    const createdAt = token.created_at ?? new Date().toISOString();
    if (this.statements.tokenByName.get(token.name) !== undefined) return { ok: false, code: 'token_name_taken' };
    if (this.statements.tokenBySha.get(token.token_sha256) !== undefined) return { ok: false, code: 'token_secret_taken' };
    this.statements.insertToken.run({
      name: token.name,
      token_sha256: token.token_sha256,
      allowed_servers: JSON.stringify(token.allowed_servers),
      profile: token.profile ?? null,
      created_at: createdAt,
    });
    return { ok: true, token: tokenFromRow(this.statements.tokenByName.get(token.name) as TokenRow) };
  }

  async listAgentTokens(): Promise<StoredAgentToken[]> {
    return (this.statements.listTokens.all() as TokenRow[]).map(tokenFromRow);
  }

  async findAgentTokenBySha256(tokenSha256: string): Promise<StoredAgentToken | undefined> {
    const row = this.statements.tokenBySha.get(tokenSha256) as TokenRow | undefined;
    return row === undefined ? undefined : tokenFromRow(row);
  }

  async revokeAgentToken(name: string): Promise<boolean> {
    return this.statements.revokeToken.run(new Date().toISOString(), name).changes === 1;
  }

  async getUpstreamCredential(server: string): Promise<string | undefined> {
    const row = this.statements.credential.get(server) as { bearer_token: string } | undefined;
    return row?.bearer_token;
  }

  async setUpstreamCredential(server: string, bearerToken: string): Promise<void> {
    this.statements.upsertCredential.run(server, bearerToken, new Date().toISOString());
  }

  async deleteUpstreamCredential(server: string): Promise<boolean> {
    return this.statements.deleteCredential.run(server).changes === 1;
  }

  async getUpstreamOAuth(server: string): Promise<UpstreamOAuthRecord | undefined> {
    const row = this.statements.oauth.get(server) as OAuthRow | undefined;
    return row === undefined ? undefined : oauthFromRow(row);
  }

  async setUpstreamOAuth(server: string, record: UpstreamOAuthRecord): Promise<void> {
    const { client, tokens, tokens_expire_at, discovery, pending } = record;
    if (client === undefined && tokens === undefined && discovery === undefined && pending === undefined) {
      this.statements.deleteOAuth.run(server);
      return;
    }
    this.statements.upsertOAuth.run({
      server,
      client: jsonOrNull(client),
      tokens: jsonOrNull(tokens),
      tokens_expire_at: tokens === undefined ? null : (tokens_expire_at ?? null),
      discovery: jsonOrNull(discovery),
      pending: jsonOrNull(pending),
      updated_at: new Date().toISOString(),
    });
  }

  /**
   * Group commit: records appended during one turn of the event loop are written in one
   * transaction (a commit costs far more than an insert), and each promise settles once its
   * record is committed, so "written before the response" still holds for every caller. Under a
   * steady load from many callers a commit may wait a turn or more for the next records (at most
   * GATHER_WINDOW_MS after the previous commit; commit-gathering.ts).
   */
  appendActivity(record: ActivityInput): Promise<AppendedActivity> {
    // The one refusal of a closed store: close() commits everything pending before it closes, so no flush
    // after it finds records and touches the closed connection (not even to size the log).
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    const tsMs = this.timeOf(record.timestamp);
    if (Number.isNaN(tsMs)) return Promise.reject(new TypeError(`activity timestamp is not a date: ${record.timestamp}`));
    return new Promise((resolve, reject) => {
      const { type, timestamp, status, surface, request_id: requestId } = record;
      // The metadata's JSON text is written, and it sizes the commit (WalLimit.framesOf).
      this.pendingActivity.push({ type, timestamp, tsMs, status, surface, requestId, json: jsonOf(record.metadata), record, resolve, reject });
      if (this.pendingActivity.length === 1 && this.folding === undefined) setImmediate(() => this.flushActivity());
    });
  }

  /** Date.parse of a record's timestamp; the records of one millisecond share theirs, so the last one is kept. */
  private timeOf(timestamp: string): number {
    if (timestamp !== this.lastTimestamp) {
      this.lastTsMs = Date.parse(timestamp);
      this.lastTimestamp = timestamp;
    }
    return this.lastTsMs;
  }

  /**
   * Commits the pending records, as few commits as the log's headroom allows (one per turn at any
   * usual rate). `force` (close) writes them whatever the log holds: they were accepted.
   */
  private flushActivity(force = false): void {
    if (this.folding !== undefined && !force) return;
    const pending = this.pendingActivity;
    if (!force && pending.length > 0 && this.gathering.shouldWait(pending.length)) {
      setImmediate(() => this.flushActivity());
      return;
    }
    const before = pending.length;
    try {
      while (pending.length > 0) {
        const copyAt = this.walLimit.copyAtBytes(this.copies);
        const walBytes = this.walSize.bytesBelow(force ? copyAt : Math.min(copyAt, this.walLimit.foldAtBytes));
        // A fold resumes this flush once the log is back in the database.
        if (!force && walBytes >= this.walLimit.foldAtBytes) return this.fold();
        if (walBytes >= copyAt) this.copyAhead();
        const { count, frames } = this.commitSize(pending);
        this.commitBatch(pending.splice(0, count), frames);
      }
    } finally {
      if (pending.length < before) this.gathering.committed(before - pending.length);
    }
    if (this.closed || !this.activity.full(this.countLimit)) return;
    // A new segment (and dropping old ones) writes a few pages of its own: it waits for room too.
    if (!force && this.logAtFold()) return this.fold();
    try {
      this.walSize.invalidate();
      this.activity.startSegment(this.countLimit);
    } catch {
      // The records are committed; the next flush tries again, and the runtime's full pass still runs.
    }
  }

  /**
   * How many of the first pending records fit in one commit's share of the log (at least one), and
   * the frames they may write.
   */
  private commitSize(pending: readonly PendingActivity[]): { count: number; frames: number } {
    let frames = 0;
    let count = 0;
    for (const { json } of pending) {
      const next = this.walLimit.framesOf(json.length);
      if (count > 0 && frames + next > this.walLimit.commitFrames) break;
      frames += next;
      count++;
    }
    return { count, frames };
  }

  private commitBatch(batch: readonly PendingActivity[], frames: number): void {
    let first: number;
    try {
      first = this.activity.append(batch);
    } catch (cause) {
      // A failed commit may have spilled frames of its own into the log.
      this.walSize.invalidate();
      for (const pending of batch) pending.reject(cause);
      return;
    }
    this.walSize.committed(batch.length, frames);
    batch.forEach((pending, i) => pending.resolve({ ...pending.record, id: first + i }));
    this.recordsCommitted += batch.length;
    if (this.recordsCommitted >= CHECKPOINT_THREAD_AFTER_RECORDS) this.startCheckpointThread();
  }

  async queryActivity(query: ActivityQuery): Promise<StoredActivity[]> {
    if (this.closed) throw new Error('the store is closed');
    const where: string[] = [];
    const params: Record<string, string | number> = {};
    if (query.type !== undefined) {
      where.push('type = @type');
      params['type'] = query.type;
    }
    if (query.request_id !== undefined) {
      where.push('request_id = @request_id');
      params['request_id'] = query.request_id;
    }
    if (query.server !== undefined) {
      // A preflight's IDs are echoed as sent; its server is the part before the first ':'.
      where.push(`((type = 'tool_call' AND json_extract(metadata, '$.server') = @server)
        OR (type = 'preflight' AND EXISTS (SELECT 1 FROM json_each(metadata, '$.per_tool') AS t
          WHERE substr(json_extract(t.value, '$.id'), 1, length(@server) + 1) = @server || ':')))`);
      params['server'] = query.server;
    }
    if (query.verdict !== undefined) {
      where.push(`type = 'preflight' AND json_extract(metadata, '$.verdict') = @verdict`);
      params['verdict'] = query.verdict;
    }
    if (query.since !== undefined) {
      where.push('ts_ms >= @since');
      params['since'] = parseBound(query.since, 'since');
    }
    if (query.until !== undefined) {
      where.push('ts_ms <= @until');
      params['until'] = parseBound(query.until, 'until');
    }
    const limit = Math.min(Math.max(Math.trunc(query.limit ?? DEFAULT_ACTIVITY_LIMIT), 0), MAX_ACTIVITY_LIMIT);
    const offset = Math.max(Math.trunc(query.offset ?? 0), 0);
    const filter: ActivityFilter = { where: where.join(' AND '), params };
    return this.activity.query(filter, limit, offset).map(activityFromRow);
  }

  /**
   * One commit's share of the log at a time (a pass after a long idle can delete millions of rows),
   * waiting for a fold whenever the log is at its fold point.
   */
  async pruneActivity(retention: ActivityRetention, now: Date = new Date()): Promise<number> {
    const keep = Math.max(0, Math.trunc(retention.maxRecords));
    this.countLimit = keep;
    const cutoff = now.getTime() - retention.maxAgeDays * DAY_MS;
    const rows = this.walLimit.rowsPerCommit;
    let removed = 0;
    for (const prune of [() => this.activity.deleteOlderThan(cutoff, rows), () => this.activity.deleteBeyond(keep, rows)]) {
      for (;;) {
        await this.roomInLog();
        if (this.closed) return removed;
        // A prune may drop a whole segment (a schema change, which total_changes() does not count).
        this.walSize.invalidate();
        const changes = prune();
        removed += changes;
        if (changes < rows) break;
      }
    }
    return removed;
  }

  close(): void {
    if (this.closed) return;
    // Records already accepted are written before the database goes away.
    this.flushActivity(true);
    this.checkpointer?.finish('close');
    this.closed = true;
    for (const resume of this.foldWaiters.splice(0)) resume();
    try {
      this.db.close();
    } finally {
      // After the connections: closing its descriptor drops the process's locks on the WAL index.
      this.walLog.close();
      this.lock.release();
    }
  }
}

function prepareStatements(db: Database) {
  const prepare = (sql: string): Statement => db.prepare(sql);
  return {
    listApprovals: prepare(
      'SELECT server, tool, status, approved_hash, current_hash, hash_schema_version, user_disabled FROM approvals ORDER BY server, tool',
    ),
    upsertApproval: prepare(
      `INSERT INTO approvals (server, tool, status, approved_hash, current_hash, hash_schema_version, user_disabled, approved_definition, updated_at)
       VALUES (@server, @tool, @status, @approved_hash, @current_hash, @hash_schema_version, @user_disabled, @approved_definition, @updated_at)
       ON CONFLICT (server, tool) DO UPDATE SET status = excluded.status, approved_hash = excluded.approved_hash,
         current_hash = excluded.current_hash, hash_schema_version = excluded.hash_schema_version,
         user_disabled = excluded.user_disabled, updated_at = excluded.updated_at,
         approved_definition = CASE
           WHEN excluded.approved_definition IS NOT NULL THEN excluded.approved_definition
           WHEN excluded.approved_hash IS approvals.approved_hash THEN approvals.approved_definition
           ELSE NULL END`,
    ),
    approvedDefinition: prepare('SELECT approved_definition FROM approvals WHERE server = ? AND tool = ?'),
    listOverrides: prepare('SELECT server, quarantined, enabled FROM server_overrides ORDER BY server'),
    upsertOverride: prepare(
      `INSERT INTO server_overrides (server, quarantined, enabled, updated_at) VALUES (@server, @quarantined, @enabled, @updated_at)
       ON CONFLICT (server) DO UPDATE SET quarantined = excluded.quarantined, enabled = excluded.enabled, updated_at = excluded.updated_at`,
    ),
    deleteOverride: prepare('DELETE FROM server_overrides WHERE server = ?'),
    listKnown: prepare('SELECT server, first_seen_at, baseline_at FROM known_servers ORDER BY server'),
    markBaseline: prepare('UPDATE known_servers SET baseline_at = ? WHERE server = ? AND baseline_at IS NULL'),
    insertKnown: prepare('INSERT INTO known_servers (server, first_seen_at) VALUES (?, ?) ON CONFLICT (server) DO NOTHING'),
    tokenByName: prepare('SELECT * FROM agent_tokens WHERE name = ?'),
    tokenBySha: prepare('SELECT * FROM agent_tokens WHERE token_sha256 = ?'),
    listTokens: prepare('SELECT * FROM agent_tokens ORDER BY name'),
    insertToken: prepare(
      `INSERT INTO agent_tokens (name, token_sha256, allowed_servers, profile, created_at)
       VALUES (@name, @token_sha256, @allowed_servers, @profile, @created_at)`,
    ),
    revokeToken: prepare('UPDATE agent_tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL'),
    credential: prepare('SELECT bearer_token FROM upstream_credentials WHERE server = ?'),
    upsertCredential: prepare(
      `INSERT INTO upstream_credentials (server, bearer_token, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (server) DO UPDATE SET bearer_token = excluded.bearer_token, updated_at = excluded.updated_at`,
    ),
    deleteCredential: prepare('DELETE FROM upstream_credentials WHERE server = ?'),
    oauth: prepare('SELECT client, tokens, tokens_expire_at, discovery, pending FROM upstream_oauth WHERE server = ?'),
    upsertOAuth: prepare(
      `INSERT INTO upstream_oauth (server, client, tokens, tokens_expire_at, discovery, pending, updated_at)
       VALUES (@server, @client, @tokens, @tokens_expire_at, @discovery, @pending, @updated_at)
       ON CONFLICT (server) DO UPDATE SET client = excluded.client, tokens = excluded.tokens, tokens_expire_at = excluded.tokens_expire_at,
         discovery = excluded.discovery, pending = excluded.pending, updated_at = excluded.updated_at`,
    ),
    deleteOAuth: prepare('DELETE FROM upstream_oauth WHERE server = ?'),
  };
}

export interface OAuthRow {
  client: string | null;
  tokens: string | null;
  tokens_expire_at: number | null;
  discovery: string | null;
  pending: string | null;
}

export function oauthFromRow(row: OAuthRow): UpstreamOAuthRecord {
  return {
    ...(row.client === null ? {} : { client: JSON.parse(row.client) as Record<string, unknown> }),
    ...(row.tokens === null ? {} : { tokens: JSON.parse(row.tokens) as Record<string, unknown> }),
    ...(row.tokens_expire_at === null ? {} : { tokens_expire_at: row.tokens_expire_at }),
    ...(row.discovery === null ? {} : { discovery: JSON.parse(row.discovery) as Record<string, unknown> }),
    ...(row.pending === null ? {} : { pending: JSON.parse(row.pending) as Record<string, unknown> }),
  };
}

export function jsonOrNull(value: object | undefined): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

export function approvalFromRow(row: ApprovalRow): StoredApproval {
  return {
    server: row.server,
    tool: row.tool,
    status: row.status,
    ...(row.approved_hash === null ? {} : { approved_hash: row.approved_hash }),
    ...(row.current_hash === null ? {} : { current_hash: row.current_hash }),
    hash_schema_version: row.hash_schema_version,
    user_disabled: row.user_disabled === 1,
  };
}

export function tokenFromRow(row: TokenRow): StoredAgentToken {
  return {
    name: row.name,
    token_sha256: row.token_sha256,
    allowed_servers: JSON.parse(row.allowed_servers) as string[],
    ...(row.profile === null ? {} : { profile: row.profile }),
    created_at: row.created_at,
    revoked: row.revoked_at !== null,
  };
}

export function activityFromRow(row: ActivityRow): StoredActivity {
  return {
    id: row.id,
    type: row.type,
    timestamp: row.timestamp,
    status: row.status,
    ...(row.surface === null ? {} : { surface: row.surface }),
    request_id: row.request_id,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  };
}

export function parseBound(value: string, name: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`activity query: ${name} is not a date: ${value}`);
  return ms;
}
