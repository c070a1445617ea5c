// The activity log in segments (store schema version 4): records written as one multi-row INSERT per
// batch are committed before their append settles (another connection reads them at that moment), ids
// count on across segments, restarts and a log pruned empty, a version 3 table is carried over whole, and a
// segment created at run time has exactly the tables and indexes migration 4 gave the first one.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { segmentDdl, segmentRecords } from '../src/store/activity-segments.js';
import { MIGRATIONS, migrate } from '../src/store/migrations.js';
import { openStore, STORE_FILE_NAME, type ActivityInput, type Store } from '../src/store/store.js';
import { cleanupAfterEach } from './cleanup-after-each.js';

const { scratch, defer } = cleanupAfterEach();

function open(dir: string): Store {
  const opened = openStore(dir);
  if (!opened.ok) throw new Error(opened.error.message);
  defer(() => opened.store.close());
  return opened.store;
}

function record(requestId: string, metadata: object = { verdict: 'ready', ids_count: 1, reasons: {}, per_tool: [{ id: 'a:b', status: 'ready' }] }): ActivityInput {
  return { type: 'preflight', timestamp: new Date().toISOString(), status: 'success', surface: 'rest', request_id: requestId, metadata };
}

/** A second connection to the store's file: it sees a record only once its transaction has committed. */
function reader(dir: string): BetterSqlite3.Database {
  const db = new BetterSqlite3(join(dir, STORE_FILE_NAME), { readonly: true });
  defer(() => {
    db.close();
  });
  return db;
}

describe('the activity log in segments', () => {
  it('settles each append only once its record is committed, whatever the batch size', async () => {
    const dir = scratch().file('data');
    const store = open(dir);
    const other = reader(dir);
    const byId = other.prepare('SELECT request_id FROM activity_log WHERE id = ?');
    // 1, a few, and more rows than one INSERT statement carries (several statements, one transaction).
    for (const size of [1, 7, 40, 75]) {
      const seen = await Promise.all(
        Array.from({ length: size }, (_, i) =>
          // Read synchronously as the promise settles: nothing else runs in between.
          store.appendActivity(record(`b${size}-${i}`)).then((appended) => ({ wanted: appended.request_id, found: (byId.get(appended.id) as { request_id: string } | undefined)?.request_id })),
        ),
      );
      expect(seen.filter(({ wanted, found }) => wanted !== found)).toEqual([]);
    }
  });

  it('gives ids in order across new segments and restarts, and never twice, even after pruning everything', async () => {
    const dir = scratch().file('data');
    let store = open(dir);
    await store.pruneActivity({ maxRecords: 150, maxAgeDays: 30 });
    const ids: number[] = [];
    // Segments of segmentRecords(150) = 100: several start (and old ones go) on the way.
    for (let round = 0; round < 40; round++) {
      ids.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => store.appendActivity(record(`r${round}-${i}`))))).map((a) => a.id));
    }
    expect(ids).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    expect(segments(dir).length).toBeGreaterThan(1);
    store.close();
    store = open(dir);
    expect((await store.appendActivity(record('after-restart'))).id).toBe(401);
    expect(await store.pruneActivity({ maxRecords: 0, maxAgeDays: 30 })).toBeGreaterThan(0);
    expect(await store.queryActivity({})).toEqual([]);
    store.close();
    store = open(dir);
    expect((await store.appendActivity(record('after-pruning-all'))).id).toBe(402);
  });

  it('reads across segments as one log: newest first, filters, paging', async () => {
    const store = open(scratch().file('data'));
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    await store.pruneActivity({ maxRecords: 1000, maxAgeDays: 30 }, new Date(base));
    // 350 records over 4 segments (100 each), timestamps in reverse order of writing for the first 50.
    for (let i = 0; i < 350; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) => {
          const n = i + j;
          const ms = n < 50 ? base - n * 1000 : base + n * 1000;
          return store.appendActivity({ ...record(`q${n}`), type: n % 3 === 0 ? 'tool_call' : 'preflight', timestamp: new Date(ms).toISOString() });
        }),
      );
    }
    const all = await store.queryActivity({ limit: 1000 });
    expect(all).toHaveLength(350);
    const order = [...all].sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || b.id - a.id);
    expect(all.map((r) => r.id)).toEqual(order.map((r) => r.id));
    expect((await store.queryActivity({ limit: 5, offset: 300 })).map((r) => r.id)).toEqual(order.slice(300, 305).map((r) => r.id));
    const calls = await store.queryActivity({ type: 'tool_call', limit: 1000 });
    expect(calls.map((r) => r.id)).toEqual(order.filter((r) => r.type === 'tool_call').map((r) => r.id));
    expect((await store.queryActivity({ request_id: 'q123' })).map((r) => r.request_id)).toEqual(['q123']);
    const window = await store.queryActivity({ since: new Date(base + 100_000).toISOString(), until: new Date(base + 109_000).toISOString() });
    expect(window.map((r) => r.request_id)).toEqual(Array.from({ length: 10 }, (_, i) => `q${109 - i}`));
    // The hourly pass keeps the newest by timestamp, exactly.
    expect(await store.pruneActivity({ maxRecords: 120, maxAgeDays: 30 }, new Date(base))).toBe(230);
    expect((await store.queryActivity({ limit: 1000 })).map((r) => r.id)).toEqual(order.slice(0, 120).map((r) => r.id));
  });

  it('upgrades a store left at schema version 3: its activity_log carried over whole, no id given twice, the rest kept', async () => {
    const dir = scratch().file('data');
    open(dir).close();
    // The file as a gateway before segments left it: migrations 1 to 3, five records given, the last two pruned.
    const file = join(dir, STORE_FILE_NAME);
    rebuildAsVersion3(file);
    const store = open(dir);
    expect((await store.queryActivity({})).map((r) => [r.id, r.request_id, r.metadata])).toEqual([
      [3, 'v3-3', { n: 3 }],
      [2, 'v3-2', { n: 2 }],
      [1, 'v3-1', { n: 1 }],
    ]);
    expect((await store.appendActivity(record('v4-first'))).id).toBe(6);
    // What migrations 2 and 3 hold is untouched by 4.
    expect(await store.getApprovedDefinition('alpha', 't')).toBe('{"name":"t"}');
    expect(await store.getUpstreamOAuth('alpha')).toEqual({ tokens: { access_token: 'a' }, tokens_expire_at: 42 });
  });

  it('creates each new segment with the same tables and indexes migration 4 gave the first', async () => {
    const dir = scratch().file('data');
    const store = open(dir);
    await store.pruneActivity({ maxRecords: 10, maxAgeDays: 30 });
    await Promise.all(Array.from({ length: segmentRecords(10) }, (_, i) => store.appendActivity(record(`s${i}`))));
    await store.appendActivity(record('next'));
    const numbers = segments(dir);
    expect(numbers.length).toBeGreaterThanOrEqual(2);
    const schema = (n: number) =>
      (reader(dir).prepare("SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = ? ORDER BY name").all(`activity_segment_${n}`) as { type: string; name: string; sql: string }[]).map(
        (row) => ({ ...row, name: row.name.replace(`_${n}`, '_N'), sql: normalise(row.sql.replaceAll(`activity_segment_${n}`, 'activity_segment_N')) }),
      );
    const fresh = new BetterSqlite3(':memory:');
    migrate(fresh, MIGRATIONS);
    const migrated = (fresh.prepare("SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = 'activity_segment_1' ORDER BY name").all() as { type: string; name: string; sql: string }[]).map(
      (row) => ({ ...row, name: row.name.replace('_1', '_N'), sql: normalise(row.sql.replaceAll('activity_segment_1', 'activity_segment_N')) }),
    );
    fresh.close();
    expect(schema(numbers.at(-1)!)).toEqual(migrated);
    expect(normalise(segmentDdl(7))).toContain(normalise('CREATE INDEX activity_segment_7_ts ON activity_segment_7 (ts_ms, id, type)'));
  });
});

function segments(dir: string): number[] {
  const db = new BetterSqlite3(join(dir, STORE_FILE_NAME), { readonly: true });
  try {
    return (db.prepare('SELECT segment FROM activity_segments ORDER BY segment').all() as { segment: number }[]).map((r) => r.segment);
  } finally {
    db.close();
  }
}

function normalise(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim();
}

/**
 * Replaces the file by one at schema version 3 (migrations 1 to 3 as released, the activity log one
 * AUTOINCREMENT table) with five activity records written and the newest two deleted, an approved
 * definition and an OAuth record.
 */
function rebuildAsVersion3(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  const db = new BetterSqlite3(file);
  try {
    const result = migrate(db, MIGRATIONS.filter((m) => m.version <= 3));
    if (!result.ok || result.applied.join() !== '1,2,3') throw new Error(`version 3 not reached: ${JSON.stringify(result)}`);
    const insert = db.prepare("INSERT INTO activity_log (type, timestamp, ts_ms, status, surface, request_id, metadata) VALUES ('preflight', ?, ?, 'success', 'rest', ?, ?)");
    for (let n = 1; n <= 5; n++) insert.run(new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), Date.UTC(2026, 0, 1, 0, 0, n), `v3-${n}`, JSON.stringify({ n }));
    db.exec('DELETE FROM activity_log WHERE id > 3');
    db.exec(`INSERT INTO known_servers (server, first_seen_at) VALUES ('alpha', '2026-01-01T00:00:00Z');
      INSERT INTO approvals (server, tool, status, approved_hash, current_hash, hash_schema_version, updated_at, approved_definition)
        VALUES ('alpha', 't', 'approved', 'h', 'h', 1, '2026-01-01T00:00:00Z', '{"name":"t"}');
      INSERT INTO upstream_oauth (server, tokens, tokens_expire_at, updated_at) VALUES ('alpha', '{"access_token":"a"}', 42, '2026-01-01T00:00:00Z');`);
  } finally {
    db.close();
  }
}
