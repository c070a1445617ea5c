// SQLite migration 2 (the approved definition kept next to its hash) over a store written before it.
// The rules of approved definitions and of the activity log's server and verdict filters are the
// store contract's (store-contract.ts), run against every store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../src/store/migrations.js';
import { openStore, STORE_FILE_NAME, type Store } from '../src/store/store.js';

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

describe('approved definitions in the SQLite store', () => {
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
