import type { Migration } from './migrations.js';

/**
 * The PostgreSQL store's schema, versioned like the SQLite one (migrations.ts): append-only, a
 * released migration is never edited, a change is a new entry, versions consecutive from 1. Version
 * N here holds the same state as version N of SQLite, in PostgreSQL's own types.
 *
 * Timestamps stay ISO 8601 text, as the interface gives and returns them; `ts_ms` orders the activity
 * log. Activity metadata is kept as the JSON text it was written as (the REST answer shows it byte for
 * byte); cast it to jsonb to search it.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
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
        user_disabled       BOOLEAN NOT NULL DEFAULT false,
        updated_at          TEXT NOT NULL,
        PRIMARY KEY (server, tool)
      );
      CREATE TABLE server_overrides (
        server      TEXT PRIMARY KEY,
        quarantined BOOLEAN,
        enabled     BOOLEAN,
        updated_at  TEXT NOT NULL
      );
      CREATE TABLE agent_tokens (
        name            TEXT PRIMARY KEY,
        token_sha256    TEXT NOT NULL UNIQUE,
        allowed_servers TEXT[] NOT NULL,
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
        id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        type       TEXT NOT NULL,
        timestamp  TEXT NOT NULL,
        ts_ms      BIGINT NOT NULL,
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
    // The JSON parts are kept as the text they were written as (jsonb would reorder their keys and
    // refuse a \u0000 escape). The expiry is a double so that any millisecond count reads back as given.
    sql: `
      CREATE TABLE upstream_oauth (
        server           TEXT PRIMARY KEY,
        client           TEXT,
        tokens           TEXT,
        tokens_expire_at DOUBLE PRECISION,
        discovery        TEXT,
        pending          TEXT,
        updated_at       TEXT NOT NULL
      );
    `,
  },
];
