// The approved definition kept next to its hash (migration 2), and the activity log's server and
// verdict filters, on a real SQLite file: the rules the Store interface documents for other stores too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../src/store/migrations.js';
import { openStore, STORE_FILE_NAME, type Store, type StoredApproval } from '../src/store/store.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-store-def-'));
  dirs.push(dir);
  return dir;
}

function open(dir: string): Store {
  const result = openStore(dir);
  if (!result.ok) throw new Error(result.error.message);
  stores.push(result.store);
  return result.store;
}

const H1 = `sha256/v1:${'1'.repeat(64)}`;
const H2 = `sha256/v1:${'2'.repeat(64)}`;
const record = (extra: Partial<StoredApproval>): StoredApproval => ({ server: 's', tool: 't', status: 'approved', approved_hash: H1, current_hash: H1, hash_schema_version: 1, user_disabled: false, ...extra });

describe('approved definitions', () => {
  it('are kept while the approved hash stays, replaced with a new one, and cleared when the hash moves without one', async () => {
    const store = open(tempDir());
    await store.markServersKnown(['s']);
    await store.saveApprovals([record({ approved_definition: '{"description":"v1"}' })]);
    expect(await store.getApprovedDefinition('s', 't')).toBe('{"description":"v1"}');
    // A rug-pull: same approved hash, another current one, no definition given: the approved one stays.
    await store.saveApprovals([record({ status: 'changed', current_hash: H2 })]);
    expect(await store.getApprovedDefinition('s', 't')).toBe('{"description":"v1"}');
    // Approved again with the new hash and its definition.
    await store.saveApprovals([record({ approved_hash: H2, current_hash: H2, approved_definition: '{"description":"v2"}' })]);
    expect(await store.getApprovedDefinition('s', 't')).toBe('{"description":"v2"}');
    // A new approved hash without a definition must not keep the old hash's definition.
    await store.saveApprovals([record({ approved_hash: H1 })]);
    expect(await store.getApprovedDefinition('s', 't')).toBeUndefined();
    expect(await store.getApprovedDefinition('s', 'unknown')).toBeUndefined();
    // listApprovals stays lean: the definitions are read one by one.
    expect((await store.listApprovals())[0]).not.toHaveProperty('approved_definition');
  });

  it('migrates a store written before definitions were kept: its approvals stay, with no definition', async () => {
    const dir = tempDir();
    const db = new BetterSqlite3(join(dir, STORE_FILE_NAME));
    expect(migrate(db, MIGRATIONS.slice(0, 1))).toEqual({ ok: true, applied: [1] });
    db.prepare("INSERT INTO known_servers (server, first_seen_at) VALUES ('s', '2026-01-01T00:00:00Z')").run();
    db.prepare(
      "INSERT INTO approvals (server, tool, status, approved_hash, current_hash, hash_schema_version, user_disabled, updated_at) VALUES ('s', 't', 'approved', ?, ?, 1, 0, '2026-01-01T00:00:00Z')",
    ).run(H1, H1);
    db.close();
    const store = open(dir);
    expect(await store.listApprovals()).toEqual([{ server: 's', tool: 't', status: 'approved', approved_hash: H1, current_hash: H1, hash_schema_version: 1, user_disabled: false }]);
    expect(await store.getApprovedDefinition('s', 't')).toBeUndefined();
  });
});

describe('activity filters', () => {
  it('finds tool calls to a server and preflights that asked for one of its tools, and preflights by verdict', async () => {
    const store = open(tempDir());
    const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}Z`;
    const preflight = (id: string, second: number, verdict: string, ids: string[]) =>
      store.appendActivity({ type: 'preflight', timestamp: at(second), status: verdict === 'ready' ? 'success' : 'blocked', surface: 'rest', request_id: id, metadata: { verdict, ids_count: ids.length, reasons: {}, per_tool: ids.map((tool) => ({ id: tool, status: 'ready' })) } });
    await preflight('p1', 1, 'ready', ['alpha:echo']);
    await preflight('p2', 2, 'blocked', ['beta:x', 'alpha_2:y']);
    // "alpha" must not match "alpha_2" (a LIKE pattern would: _ is its wildcard), nor an ID without the colon.
    await preflight('p3', 3, 'unknown_ids', ['alphabet:z', 'alpha']);
    await store.appendActivity({ type: 'tool_call', timestamp: at(4), status: 'success', request_id: 'c1', metadata: { server: 'alpha', tool: 'echo', outcome: 'success', duration_ms: 1 } });
    await store.appendActivity({ type: 'tool_call', timestamp: at(5), status: 'success', request_id: 'c2', metadata: { server: 'beta', tool: 'x', outcome: 'success', duration_ms: 1 } });
    const ids = async (query: Parameters<Store['queryActivity']>[0]) => (await store.queryActivity(query)).map((found) => found.request_id);
    expect(await ids({ server: 'alpha' })).toEqual(['c1', 'p1']);
    expect(await ids({ server: 'alpha_2' })).toEqual(['p2']);
    expect(await ids({ server: 'beta' })).toEqual(['c2', 'p2']);
    expect(await ids({ verdict: 'ready' })).toEqual(['p1']);
    expect(await ids({ verdict: 'blocked', server: 'beta' })).toEqual(['p2']);
    expect(await ids({ verdict: 'ready', type: 'tool_call' })).toEqual([]);
  });
});
