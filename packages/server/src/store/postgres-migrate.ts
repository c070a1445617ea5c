import type { ClientBase } from 'pg';
import type { Migration, MigrationResult } from './migrations.js';
import { LOCK_SPACE, lockSession, unlockSession } from './postgres-advisory-lock.js';
import { POSTGRES_MIGRATIONS } from './postgres-migrations.js';

/**
 * Brings the database to the newest schema, each migration in its own transaction, as SQLite's
 * migrate() does. Replicas starting at once against an empty database take turns: the first holds
 * the migration lock while it creates the schema, the others wait for it and then find nothing to
 * do. The lock is taken before `schema_migrations` is even created, since two concurrent
 * `CREATE TABLE IF NOT EXISTS` of one table can both try to create it.
 */
export async function migratePostgres(client: ClientBase, migrations: readonly Migration[] = POSTGRES_MIGRATIONS): Promise<MigrationResult> {
  await lockSession(client, LOCK_SPACE.migrations, 'schema');
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
    const current = (await client.query<{ v: number }>('SELECT COALESCE(MAX(version), 0)::int AS v FROM schema_migrations')).rows[0]?.v ?? 0;
    const newest = migrations.at(-1)?.version ?? 0;
    if (current > newest) {
      return {
        ok: false,
        message: `the store is at schema version ${current}, newer than this gateway knows (${newest}); run a newer gateway`,
      };
    }
    const applied: number[] = [];
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          new Date().toISOString(),
        ]);
        await client.query('COMMIT');
      } catch (cause) {
        await client.query('ROLLBACK').catch(() => undefined);
        return { ok: false, message: `schema migration ${migration.version} (${migration.name}) failed: ${cause instanceof Error ? cause.message : String(cause)}` };
      }
      applied.push(migration.version);
    }
    return { ok: true, applied };
  } finally {
    await unlockSession(client, LOCK_SPACE.migrations, 'schema').catch(() => false);
  }
}
