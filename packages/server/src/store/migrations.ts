import type { Database } from 'better-sqlite3';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The store's schema, as an append-only list: a released migration is never edited, a change
 * is a new entry. Versions are consecutive from 1.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial state: servers, approvals, tokens, credentials, activity log',
    sql: `
      CREATE TABLE known_servers (
        server        TEXT PRIMARY KEY,
        first_seen_at TEXT NOT NULL,
        baseline_at   TEXT
      );
      CREATE TABLE approvals (
        server              TEXT NOT NULL REFERENCES known_servers(server) ON DELETE CASCADE,
        tool                TEXT NOT NULL,
        status              TEXT NOT NULL CHECK (status IN ('approved', 'pending', 'changed')),
        approved_hash       TEXT,
        current_hash        TEXT,
        hash_schema_version INTEGER NOT NULL,
        user_disabled       INTEGER NOT NULL DEFAULT 0 CHECK (user_disabled IN (0, 1)),
        updated_at          TEXT NOT NULL,
        PRIMARY KEY (server, tool)
      );
      CREATE TABLE server_overrides (
        server      TEXT PRIMARY KEY,
        quarantined INTEGER CHECK (quarantined IN (0, 1)),
        enabled     INTEGER CHECK (enabled IN (0, 1)),
        updated_at  TEXT NOT NULL
      );
      CREATE TABLE agent_tokens (
        name            TEXT PRIMARY KEY,
        token_sha256    TEXT NOT NULL UNIQUE,
        allowed_servers TEXT NOT NULL,
        profile         TEXT,
        created_at      TEXT NOT NULL,
        revoked_at      TEXT
      );
      CREATE TABLE upstream_credentials (
        server       TEXT PRIMARY KEY,
        bearer_token TEXT NOT NULL,
        updated_at   TEXT NOT NULL
      );
      CREATE TABLE activity_log (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        type       TEXT NOT NULL,
        timestamp  TEXT NOT NULL,
        ts_ms      INTEGER NOT NULL,
        status     TEXT NOT NULL,
        surface    TEXT,
        request_id TEXT NOT NULL,
        metadata   TEXT NOT NULL
      );
      CREATE INDEX activity_log_ts ON activity_log (ts_ms, id);
      CREATE INDEX activity_log_type_ts ON activity_log (type, ts_ms, id);
      CREATE INDEX activity_log_request_id ON activity_log (request_id);
    `,
  },
  {
    version: 2,
    name: 'approved definitions: what the operator approved, next to its hash',
    // NULL for approvals made before: only their hash was kept.
    sql: `ALTER TABLE approvals ADD COLUMN approved_definition TEXT;`,
  },
  {
    version: 3,
    name: 'OAuth state of HTTP upstreams: client registration, tokens, discovery, a login in progress',
    sql: `
      CREATE TABLE upstream_oauth (
        server           TEXT PRIMARY KEY,
        client           TEXT,
        tokens           TEXT,
        tokens_expire_at INTEGER,
        discovery        TEXT,
        pending          TEXT,
        updated_at       TEXT NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'activity log in segments: trimmed by dropping whole segments, records given explicit ids',
    // The first segment takes every record as it is; activity_segments keeps, per segment, the lowest id
    // it may give a new record, so ids are never given twice even once every record is pruned. The view
    // keeps the name activity_log for anyone reading the file. A segment created at run time has the
    // same columns and indexes (activity-segments.ts; a test compares them).
    sql: `
      CREATE TABLE activity_segments (
        segment  INTEGER PRIMARY KEY,
        id_floor INTEGER NOT NULL
      );
      CREATE TABLE activity_segment_1 (
        id         INTEGER PRIMARY KEY,
        type       TEXT NOT NULL,
        timestamp  TEXT NOT NULL,
        ts_ms      INTEGER NOT NULL,
        status     TEXT NOT NULL,
        surface    TEXT,
        request_id TEXT NOT NULL,
        metadata   TEXT NOT NULL
      );
      INSERT INTO activity_segment_1 (id, type, timestamp, ts_ms, status, surface, request_id, metadata)
        SELECT id, type, timestamp, ts_ms, status, surface, request_id, metadata FROM activity_log ORDER BY id;
      CREATE INDEX activity_segment_1_ts ON activity_segment_1 (ts_ms, id, type);
      CREATE INDEX activity_segment_1_request_id ON activity_segment_1 (request_id);
      INSERT INTO activity_segments (segment, id_floor)
        VALUES (1, COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'activity_log'), 0) + 1);
      DROP TABLE activity_log;
      CREATE VIEW activity_log AS
        SELECT id, type, timestamp, ts_ms, status, surface, request_id, metadata FROM activity_segment_1;
    `,
  },
];

export type MigrationResult = { ok: true; applied: number[] } | { ok: false; message: string };

/** Brings the database to the newest schema; each migration runs in its own transaction. */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): MigrationResult {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
  )`);
  const current = (db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations').get() as { v: number }).v;
  const newest = migrations.at(-1)?.version ?? 0;
  if (current > newest) {
    return {
      ok: false,
      message: `the store is at schema version ${current}, newer than this gateway knows (${newest}); run a newer gateway`,
    };
  }
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
    })();
    applied.push(migration.version);
  }
  return { ok: true, applied };
}
