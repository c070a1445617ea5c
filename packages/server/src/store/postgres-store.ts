import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { jsonOf } from '../json/frozen-json.js';
import type { DataDirLock } from './data-dir-lock.js';
import { activityMetadataFilter, activityMetadataNeedles } from './activity-metadata-filter.js';
import { GroupCommit } from './group-commit.js';
import { KeyedMutex } from './keyed-mutex.js';
import { LOCK_SPACE, lockSession, unlockSession } from './postgres-advisory-lock.js';
import { encodeChange, STATE_CHANNEL, type PostgresChangeFeed } from './postgres-change-feed.js';
import {
  activityFromRow,
  approvalFromRow,
  jsonOrNull,
  oauthFromRow,
  parseBound,
  tokenFromRow,
  type ActivityRow,
  type ApprovalRow,
  type OAuthRow,
  type TokenRow,
} from './sqlite-store.js';
import type { StoreChange, StoreChangeListener, StoreCoordination } from './store-coordination.js';
import type {
  ActivityInput,
  ActivityQuery,
  ActivityRetention,
  AppendedActivity,
  CreateTokenResult,
  KnownServer,
  NewAgentToken,
  ServerOverride,
  Store,
  StoredActivity,
  StoredAgentToken,
  StoredApproval,
  UpstreamOAuthRecord,
} from './store.js';

const DAY_MS = 86_400_000;
/**
 * Activity records written between two trims to the count limit of the last retention pass. The
 * runtime's full pass (age and count) runs hourly; a busy gateway writes millions of records in an
 * hour, so the count limit is also applied as records are written.
 */
export const TRIM_EVERY_RECORDS = 1000;
const DEFAULT_ACTIVITY_LIMIT = 100;
const MAX_ACTIVITY_LIMIT = 1000;
/** Rows one retention statement deletes at most, so no single statement holds locks for long. */
const MAX_DELETE_ROWS = 10_000;
/** Activity commits under way at once: a second one overlaps the first's round trip. */
const ACTIVITY_COMMITS_IN_FLIGHT = 2;
/** Rows a metadata-filtered activity search reads per round trip. */
const ACTIVITY_SCAN_ROWS = 500;
/** Records in one activity commit at most (eight parameters each, far below PostgreSQL's limit). */
const MAX_ACTIVITY_BATCH = 1000;
/** A token row in the shape the SQLite store reads (allowed_servers as JSON text). */
const TOKEN_COLUMNS = 'name, token_sha256, array_to_json(allowed_servers)::text AS allowed_servers, profile, created_at, revoked_at';

interface PendingActivity {
  readonly record: ActivityInput;
  readonly tsMs: number;
  readonly json: string;
}

export interface PostgresStoreParts {
  readonly dataDir: string;
  readonly lock: DataDirLock;
  /** The connections of every read and write. */
  readonly pool: Pool;
  /** Connections that hold an advisory lock while a section runs (its own queries use `pool`). */
  readonly lockPool: Pool;
  readonly feed: PostgresChangeFeed;
}

/**
 * The store on a PostgreSQL database that several gateway replicas share, and their coordination.
 *
 * A write of shared state is one transaction that ends with a NOTIFY on STATE_CHANNEL (delivered at
 * commit, never for a rolled-back write): `write(change, work)` does both, so a new method is its SQL
 * inside `write`. Reads are single statements on the pool. Activity records are group-committed per
 * event-loop turn, and refused while the change feed is down.
 */
export class PostgresStore implements Store, StoreCoordination {
  readonly shared = true;
  readonly dataDir: string;
  private readonly pool: Pool;
  private readonly lockPool: Pool;
  private readonly feed: PostgresChangeFeed;
  private readonly lock: DataDirLock;
  private readonly sections = new KeyedMutex();
  private readonly activity: GroupCommit<PendingActivity, number>;
  private closing: Promise<void> | undefined;
  /** The count limit of the last retention pass, applied as records are written. */
  private countLimit: number | undefined;
  private recordsSinceTrim = 0;

  constructor(parts: PostgresStoreParts) {
    this.dataDir = parts.dataDir;
    this.pool = parts.pool;
    this.lockPool = parts.lockPool;
    this.feed = parts.feed;
    this.lock = parts.lock;
    this.activity = new GroupCommit((batch) => this.commitActivity(batch), { maxInFlight: ACTIVITY_COMMITS_IN_FLIGHT, maxBatch: MAX_ACTIVITY_BATCH });
  }

  // ---- coordination

  watch(listener: StoreChangeListener): () => void {
    return this.feed.watch(listener);
  }

  reachable(): boolean {
    return this.closing === undefined && this.feed.reachable();
  }

  /**
   * A session advisory lock held on a connection of its own for the section's length. Sections of one
   * key queue in this process first, so they hold one connection between them, not one each. A section
   * must not ask for another one (its lock connection could be the last one free).
   */
  withExclusive<T>(key: string, section: () => Promise<T>): Promise<T> {
    return this.sections.run(key, async () => {
      this.assertOpen();
      return checkedOut(this.lockPool, async (client, broke) => {
        await lockSession(client, LOCK_SPACE.exclusive, key);
        try {
          return await section();
        } finally {
          // A lost connection released the lock with its session.
          await unlockSession(client, LOCK_SPACE.exclusive, key).catch(broke);
        }
      });
    });
  }

  closed(): Promise<void> {
    return this.closing ?? Promise.resolve();
  }

  // ---- approvals, servers, overrides

  async listApprovals(): Promise<StoredApproval[]> {
    const { rows } = await this.read<ApprovalRow>(
      'SELECT server, tool, status, approved_hash, current_hash, hash_schema_version, user_disabled::int AS user_disabled FROM approvals ORDER BY server, tool',
    );
    return rows.map(approvalFromRow);
  }

  async saveApprovals(records: readonly StoredApproval[]): Promise<void> {
    if (records.length === 0) return;
    const now = new Date().toISOString();
    const tools = new Set(records.map((record) => JSON.stringify([record.server, record.tool])));
    await this.write({ topic: 'state' }, async (client) => {
      // One statement cannot update a row twice: records of one tool saved together are written one by
      // one, in order, as SQLite does (a later record keeps or clears the definition an earlier one wrote).
      const batches = tools.size === records.length ? [records] : records.map((record) => [record]);
      for (const batch of batches) await client.query(UPSERT_APPROVALS, approvalColumns(batch, now));
    });
  }

  async getApprovedDefinition(server: string, tool: string): Promise<string | undefined> {
    const { rows } = await this.read<{ approved_definition: string | null }>('SELECT approved_definition FROM approvals WHERE server = $1 AND tool = $2', [server, tool]);
    return rows[0]?.approved_definition ?? undefined;
  }

  async listServerOverrides(): Promise<Map<string, ServerOverride>> {
    const { rows } = await this.read<{ server: string; quarantined: boolean | null; enabled: boolean | null }>(
      'SELECT server, quarantined, enabled FROM server_overrides ORDER BY server',
    );
    return new Map(
      rows.map((row) => [
        row.server,
        { ...(row.quarantined === null ? {} : { quarantined: row.quarantined }), ...(row.enabled === null ? {} : { enabled: row.enabled }) },
      ]),
    );
  }

  async setServerOverride(server: string, override: ServerOverride): Promise<void> {
    await this.write({ topic: 'state' }, async (client) => {
      if (override.quarantined === undefined && override.enabled === undefined) {
        await client.query('DELETE FROM server_overrides WHERE server = $1', [server]);
        return;
      }
      await client.query(
        `INSERT INTO server_overrides (server, quarantined, enabled, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (server) DO UPDATE SET quarantined = excluded.quarantined, enabled = excluded.enabled, updated_at = excluded.updated_at`,
        [server, override.quarantined ?? null, override.enabled ?? null, new Date().toISOString()],
      );
    });
  }

  async listKnownServers(): Promise<Map<string, KnownServer>> {
    const { rows } = await this.read<{ server: string; first_seen_at: string; baseline_at: string | null }>(
      'SELECT server, first_seen_at, baseline_at FROM known_servers ORDER BY server',
    );
    return new Map(rows.map((row) => [row.server, { first_seen_at: row.first_seen_at, ...(row.baseline_at === null ? {} : { baseline_at: row.baseline_at }) }]));
  }

  async markServersKnown(servers: readonly string[]): Promise<void> {
    if (servers.length === 0) return;
    await this.write({ topic: 'state' }, (client) =>
      client.query('INSERT INTO known_servers (server, first_seen_at) SELECT DISTINCT unnest($1::text[]), $2 ON CONFLICT (server) DO NOTHING', [
        servers,
        new Date().toISOString(),
      ]),
    );
  }

  async markBaselineApproved(server: string): Promise<void> {
    const now = new Date().toISOString();
    await this.write({ topic: 'state' }, async (client) => {
      await client.query('INSERT INTO known_servers (server, first_seen_at) VALUES ($1, $2) ON CONFLICT (server) DO NOTHING', [server, now]);
      await client.query('UPDATE known_servers SET baseline_at = $1 WHERE server = $2 AND baseline_at IS NULL', [now, server]);
    });
  }

  // ---- agent tokens

  async createAgentToken(token: NewAgentToken): Promise<CreateTokenResult> {
    const createdAt = token.created_at ?? new Date().toISOString();
    try {
      return await this.write(
        { topic: 'tokens' },
        async (client): Promise<CreateTokenResult> => {
          if ((await client.query('SELECT 1 FROM agent_tokens WHERE name = $1', [token.name])).rowCount !== 0) return { ok: false, code: 'token_name_taken' };
          if ((await client.query('SELECT 1 FROM agent_tokens WHERE token_sha256 = $1', [token.token_sha256])).rowCount !== 0) {
            return { ok: false, code: 'token_secret_taken' };
          }
          const { rows } = await client.query<TokenRow>(
            `INSERT INTO agent_tokens (name, token_sha256, allowed_servers, profile, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING ${TOKEN_COLUMNS}`,
            [token.name, token.token_sha256, [...token.allowed_servers], token.profile ?? null, createdAt],
          );
          return { ok: true, token: tokenFromRow(rows[0]!) };
        },
        (result) => result.ok,
      );
    } catch (cause) {
      // Another replica created the same name or secret between the checks and the insert.
      const constraint = uniqueViolation(cause);
      if (constraint === 'agent_tokens_pkey') return { ok: false, code: 'token_name_taken' };
      if (constraint === 'agent_tokens_token_sha256_key') return { ok: false, code: 'token_secret_taken' };
      throw cause;
    }
  }

  async listAgentTokens(): Promise<StoredAgentToken[]> {
    return (await this.read<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM agent_tokens ORDER BY name`)).rows.map(tokenFromRow);
  }

  async findAgentTokenBySha256(tokenSha256: string): Promise<StoredAgentToken | undefined> {
    const row = (await this.read<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM agent_tokens WHERE token_sha256 = $1`, [tokenSha256])).rows[0];
    return row === undefined ? undefined : tokenFromRow(row);
  }

  async revokeAgentToken(name: string): Promise<boolean> {
    return this.write(
      { topic: 'tokens', revoked: name },
      async (client) => (await client.query('UPDATE agent_tokens SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL', [new Date().toISOString(), name])).rowCount === 1,
      (revoked) => revoked,
    );
  }

  // ---- upstream credentials

  async getUpstreamCredential(server: string): Promise<string | undefined> {
    return (await this.read<{ bearer_token: string }>('SELECT bearer_token FROM upstream_credentials WHERE server = $1', [server])).rows[0]?.bearer_token;
  }

  async setUpstreamCredential(server: string, bearerToken: string): Promise<void> {
    await this.write({ topic: 'credentials', server }, (client) =>
      client.query(
        `INSERT INTO upstream_credentials (server, bearer_token, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (server) DO UPDATE SET bearer_token = excluded.bearer_token, updated_at = excluded.updated_at`,
        [server, bearerToken, new Date().toISOString()],
      ),
    );
  }

  async deleteUpstreamCredential(server: string): Promise<boolean> {
    return this.write(
      { topic: 'credentials', server },
      async (client) => (await client.query('DELETE FROM upstream_credentials WHERE server = $1', [server])).rowCount === 1,
      (deleted) => deleted,
    );
  }

  async getUpstreamOAuth(server: string): Promise<UpstreamOAuthRecord | undefined> {
    const { rows } = await this.read<OAuthRow>('SELECT client, tokens, tokens_expire_at, discovery, pending FROM upstream_oauth WHERE server = $1', [server]);
    return rows[0] === undefined ? undefined : oauthFromRow(rows[0]);
  }

  /**
   * Announced as the server's `credentials`: every replica reads the record again (a refresh elsewhere
   * rotated the tokens, or a login another replica started is finished here) and a connection waiting
   * for a login tries again.
   */
  async setUpstreamOAuth(server: string, record: UpstreamOAuthRecord): Promise<void> {
    const { client, tokens, tokens_expire_at, discovery, pending } = record;
    await this.write(
      { topic: 'credentials', server },
      async (db) => {
        if (client === undefined && tokens === undefined && discovery === undefined && pending === undefined) {
          return (await db.query('DELETE FROM upstream_oauth WHERE server = $1', [server])).rowCount === 1;
        }
        await db.query(
          `INSERT INTO upstream_oauth (server, client, tokens, tokens_expire_at, discovery, pending, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (server) DO UPDATE SET client = excluded.client, tokens = excluded.tokens, tokens_expire_at = excluded.tokens_expire_at,
             discovery = excluded.discovery, pending = excluded.pending, updated_at = excluded.updated_at`,
          // The expiry belongs to the tokens: without them it is not kept.
          [server, jsonOrNull(client), jsonOrNull(tokens), tokens === undefined ? null : (tokens_expire_at ?? null), jsonOrNull(discovery), jsonOrNull(pending), new Date().toISOString()],
        );
        return true;
      },
      (written) => written,
    );
  }

  // ---- activity log

  /**
   * Group commit (GroupCommit): one INSERT per event-loop turn's records, each promise settling once
   * its record is committed. Refused while the change feed is down: without it this replica may
   * answer from stale state, and no verdict goes out without its record.
   */
  appendActivity(record: ActivityInput): Promise<AppendedActivity> {
    if (this.closing !== undefined) return Promise.reject(new Error('the store is closed'));
    if (!this.feed.reachable()) return Promise.reject(new Error('the PostgreSQL store is unreachable (its change feed is down)'));
    const tsMs = Date.parse(record.timestamp);
    if (Number.isNaN(tsMs)) return Promise.reject(new TypeError(`activity timestamp is not a date: ${record.timestamp}`));
    return this.activity.add({ record, tsMs, json: jsonOf(record.metadata) }).then((id) => ({ ...record, id }));
  }

  private async commitActivity(batch: readonly PendingActivity[]): Promise<number[]> {
    const { rows } = await this.pool.query<{ id: number }>({
      // Named: each connection parses and plans it once, not once per commit.
      name: 'mcpproxy_append_activity',
      text: `INSERT INTO activity_log (type, timestamp, ts_ms, status, surface, request_id, metadata)
             SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[]) RETURNING id::float8 AS id`,
      values: [
        batch.map((p) => p.record.type),
        batch.map((p) => p.record.timestamp),
        batch.map((p) => p.tsMs),
        batch.map((p) => p.record.status),
        batch.map((p) => p.record.surface ?? null),
        batch.map((p) => p.record.request_id),
        batch.map((p) => p.json),
      ],
    });
    this.recordsSinceTrim += batch.length;
    if (this.countLimit !== undefined && this.recordsSinceTrim >= TRIM_EVERY_RECORDS) {
      this.recordsSinceTrim = 0;
      // Before this batch's answers go out, as SQLite does (it drops a whole segment): one commit in TRIM_EVERY_RECORDS pays it.
      await this.deleteBeyondCount(this.countLimit).catch(() => 0);
    }
    return rows.map((row) => row.id);
  }

  async queryActivity(query: ActivityQuery): Promise<StoredActivity[]> {
    const where: string[] = [];
    const params: (string | number)[] = [];
    const bind = (value: string | number) => {
      params.push(value);
      return `$${params.length}`;
    };
    // No stored text holds a NUL (PostgreSQL text cannot), and binding one is an error: such a filter matches nothing.
    if ([query.type, query.request_id].some((value) => value?.includes('\u0000'))) return [];
    if (query.type !== undefined) where.push(`type = ${bind(query.type)}`);
    if (query.request_id !== undefined) where.push(`request_id = ${bind(query.request_id)}`);
    if (query.since !== undefined) where.push(`ts_ms >= ${bind(parseBound(query.since, 'since'))}`);
    if (query.until !== undefined) where.push(`ts_ms <= ${bind(parseBound(query.until, 'until'))}`);
    const limit = Math.min(Math.max(Math.trunc(query.limit ?? DEFAULT_ACTIVITY_LIMIT), 0), MAX_ACTIVITY_LIMIT);
    const offset = Math.max(Math.trunc(query.offset ?? 0), 0);
    // float8: numbers in JavaScript (exact below 2^53), where the driver reads a bigint as text.
    const columns = 'SELECT id::float8 AS id, ts_ms::float8 AS ts_ms, type, timestamp, status, surface, request_id, metadata FROM activity_log';
    const order = 'ORDER BY ts_ms DESC, id DESC';
    const matches = activityMetadataFilter(query);
    if (matches === undefined) {
      const sql = `${columns}${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ${order} LIMIT ${bind(limit)} OFFSET ${bind(offset)}`;
      return (await this.read<ActivityRow>(sql, params)).rows.map(activityFromRow);
    }
    if (limit === 0) return [];
    // The metadata filters: the stored JSON text narrows the rows in SQL (every match contains these
    // texts; strpos takes them literally, no pattern), the parsed record decides, page by page.
    const needles = activityMetadataNeedles(query);
    if (needles.toolCallServer !== undefined && needles.preflightServer !== undefined) {
      where.push(
        `((type = 'tool_call' AND strpos(metadata, ${bind(needles.toolCallServer)}) > 0) OR (type = 'preflight' AND strpos(metadata, ${bind(needles.preflightServer)}) > 0))`,
      );
    }
    if (needles.verdict !== undefined) where.push(`type = 'preflight' AND strpos(metadata, ${bind(needles.verdict)}) > 0`);
    const found: StoredActivity[] = [];
    let skip = offset;
    let after: { readonly ts: number; readonly id: number } | undefined;
    for (;;) {
      const page = [...params];
      const bounds = [...where];
      if (after !== undefined) {
        page.push(after.ts, after.id);
        bounds.push(`(ts_ms, id) < ($${page.length - 1}, $${page.length})`);
      }
      const { rows } = await this.read<ActivityRow & { ts_ms: number }>(`${columns} WHERE ${bounds.join(' AND ')} ${order} LIMIT ${ACTIVITY_SCAN_ROWS}`, page);
      for (const row of rows) {
        const record = activityFromRow(row);
        if (!matches(record)) continue;
        if (skip > 0) skip -= 1;
        else if (found.push(record) === limit) return found;
      }
      if (rows.length < ACTIVITY_SCAN_ROWS) return found;
      const last = rows.at(-1)!;
      after = { ts: last.ts_ms, id: last.id };
    }
  }

  /** In statements of at most MAX_DELETE_ROWS rows: a pass after a long idle can delete millions. */
  async pruneActivity(retention: ActivityRetention, now: Date = new Date()): Promise<number> {
    this.assertOpen();
    const keep = Math.max(0, Math.trunc(retention.maxRecords));
    this.countLimit = keep;
    const cutoff = now.getTime() - retention.maxAgeDays * DAY_MS;
    let removed = 0;
    for (;;) {
      const { rowCount } = await this.pool.query(
        'DELETE FROM activity_log WHERE id IN (SELECT id FROM activity_log WHERE ts_ms < $1 ORDER BY ts_ms LIMIT $2)',
        [cutoff, MAX_DELETE_ROWS],
      );
      removed += rowCount ?? 0;
      if ((rowCount ?? 0) < MAX_DELETE_ROWS) break;
    }
    for (;;) {
      const rows = await this.deleteBeyondCount(keep);
      removed += rows;
      if (rows < MAX_DELETE_ROWS) break;
    }
    return removed;
  }

  private async deleteBeyondCount(keep: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      'DELETE FROM activity_log WHERE id IN (SELECT id FROM activity_log ORDER BY ts_ms DESC, id DESC OFFSET $1 LIMIT $2)',
      [keep, MAX_DELETE_ROWS],
    );
    return rowCount ?? 0;
  }

  /**
   * Begins closing: records already accepted are committed, then the connections end and the
   * data-dir lock is released; `closed()` settles when that is done. New calls are refused at once.
   */
  close(): void {
    if (this.closing !== undefined) return;
    this.closing = (async () => {
      await this.activity.drained();
      await this.feed.close();
      await Promise.allSettled([this.pool.end(), this.lockPool.end()]);
      this.lock.release();
    })();
  }

  // ---- the two ways to reach the database

  private async read<R extends QueryResultRow>(sql: string, params: readonly unknown[] = []): Promise<{ rows: R[] }> {
    this.assertOpen();
    return this.pool.query<R>(sql, [...params]);
  }

  /** One transaction: `work`, then the NOTIFY of `change` (unless `announce` says nothing changed). */
  private async write<T>(change: StoreChange, work: (client: PoolClient) => Promise<T>, announce: (result: T) => boolean = () => true): Promise<T> {
    this.assertOpen();
    return checkedOut(this.pool, async (client, broke) => {
      await client.query('BEGIN');
      try {
        const result = await work(client);
        if (announce(result)) await client.query('SELECT pg_notify($1, $2)', [STATE_CHANNEL, encodeChange(change)]);
        await client.query('COMMIT');
        return result;
      } catch (cause) {
        await client.query('ROLLBACK').catch(broke);
        throw cause;
      }
    });
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw new Error('the store is closed');
  }
}

/**
 * Approval records in one statement (one array per column). A definition given replaces the stored one;
 * without one the stored definition stays while the approved hash does, and is cleared when it moves.
 */
const UPSERT_APPROVALS = `INSERT INTO approvals (server, tool, status, approved_hash, current_hash, hash_schema_version, user_disabled, approved_definition, updated_at)
  SELECT *, $9::text FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::boolean[], $8::text[])
  ON CONFLICT (server, tool) DO UPDATE SET status = excluded.status, approved_hash = excluded.approved_hash,
    current_hash = excluded.current_hash, hash_schema_version = excluded.hash_schema_version,
    user_disabled = excluded.user_disabled, updated_at = excluded.updated_at,
    approved_definition = CASE
      WHEN excluded.approved_definition IS NOT NULL THEN excluded.approved_definition
      WHEN excluded.approved_hash IS NOT DISTINCT FROM approvals.approved_hash THEN approvals.approved_definition
      ELSE NULL END`;

function approvalColumns(records: readonly StoredApproval[], now: string): unknown[] {
  return [
    records.map((r) => r.server),
    records.map((r) => r.tool),
    records.map((r) => r.status),
    records.map((r) => r.approved_hash ?? null),
    records.map((r) => r.current_hash ?? null),
    records.map((r) => r.hash_schema_version),
    records.map((r) => r.user_disabled),
    records.map((r) => r.approved_definition ?? null),
    now,
  ];
}

/** The constraint a unique violation (SQLSTATE 23505) names, if that is what `cause` is. */
function uniqueViolation(cause: unknown): string | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  const { code, constraint } = cause as { code?: unknown; constraint?: unknown };
  return code === '23505' && typeof constraint === 'string' ? constraint : undefined;
}

/**
 * Runs `work` on a connection of `pool` and gives it back, or drops it when it broke (`broke`, or an
 * 'error' event: a checked-out client that loses its connection emits one, which unhandled would end
 * the process).
 */
async function checkedOut<T>(pool: Pool, work: (client: PoolClient, broke: (cause: unknown) => void) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const broke = (cause: unknown) => void (broken ??= cause instanceof Error ? cause : new Error(String(cause)));
  client.on('error', broke);
  try {
    return await work(client, broke);
  } finally {
    client.off('error', broke);
    client.release(broken);
  }
}
