// The PostgreSQL store on a real PostgreSQL server (test-postgres.ts): the store contract every
// store meets, then what only a shared store does: versioned migrations (from empty, re-run, newer
// refused, replicas starting at once), the change feed between two stores on one database, exclusive
// sections across them, and losing the database and getting it back.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openConfiguredStore } from '../src/store/open-configured-store.js';
import { POSTGRES_MIGRATIONS } from '../src/store/postgres-migrations.js';
import { migratePostgres } from '../src/store/postgres-migrate.js';
import type { StoreChange, StoreCoordination } from '../src/store/store-coordination.js';
import type { Store } from '../src/store/store.js';
import { eventually } from './fixture-process.js';
import { storeContract, type ContractStore } from './store-contract.js';
import { queryRows, startTestPostgres, type TestPostgres } from './test-postgres.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(async () => {
  await server?.close();
});

const dirs: string[] = [];
const opened: ContractStore[] = [];
afterEach(async () => {
  for (const { store, coordination } of opened.splice(0)) {
    store.close();
    await coordination.closed();
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store on the database at `url`, with its own data directory (as each replica has). */
async function openOn(url: string, log: (line: string) => void = () => undefined): Promise<ContractStore & { readonly store: Store }> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-pgstore-'));
  dirs.push(dir);
  const result = await openConfiguredStore({ data_dir: dir, store: { kind: 'postgres', url, url_source: 'test', pool_size: 4 }, store_wal_limit_bytes: 0 }, log);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  opened.push(result);
  return result;
}

/** Every change `coordination` delivers from now on, and a way to wait for one. */
function recordChanges(coordination: StoreCoordination) {
  const seen: StoreChange[] = [];
  const waiters: { match: (change: StoreChange) => boolean; resolve: (change: StoreChange) => void }[] = [];
  coordination.watch((change) => {
    seen.push(change);
    for (const waiter of [...waiters]) {
      if (waiter.match(change)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(change);
      }
    }
  });
  return {
    seen,
    next: (match: (change: StoreChange) => boolean) => {
      const already = seen.find(match);
      return already !== undefined ? Promise.resolve(already) : new Promise<StoreChange>((resolve) => waiters.push({ match, resolve }));
    },
  };
}

storeContract('PostgreSQL', async () => openOn(await server.createDatabase()));

describe('PostgreSQL schema migrations', () => {
  it('create the schema in an empty database, then find nothing to do, and refuse a newer schema', async () => {
    const url = await server.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect(await migratePostgres(client)).toEqual({ ok: true, applied: POSTGRES_MIGRATIONS.map((m) => m.version) });
      expect(await migratePostgres(client)).toEqual({ ok: true, applied: [] });
      const extra = [...POSTGRES_MIGRATIONS, { version: POSTGRES_MIGRATIONS.length + 1, name: 'extra', sql: 'CREATE TABLE extra (x INTEGER)' }];
      expect(await migratePostgres(client, extra)).toEqual({ ok: true, applied: [POSTGRES_MIGRATIONS.length + 1] });
      // A migration that fails leaves nothing half done.
      const broken = [...extra, { version: extra.length + 1, name: 'broken', sql: 'CREATE TABLE half (x INTEGER); SELECT no_such_column FROM half' }];
      const failed = await migratePostgres(client, broken);
      expect(failed).toEqual({ ok: false, message: expect.stringContaining(`schema migration ${extra.length + 1} (broken) failed`) });
      expect((await client.query("SELECT to_regclass('half') AS t")).rows[0].t).toBeNull();
    } finally {
      await client.end();
    }
    await queryRows(url, 'INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, $1, $2)', ['future', new Date().toISOString()]);
    const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-pgstore-'));
    dirs.push(dir);
    const refused = await openConfiguredStore({ data_dir: dir, store: { kind: 'postgres', url, url_source: 'environment variable DB', pool_size: 2 }, store_wal_limit_bytes: 0 }, () => undefined);
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('store_open_failed');
      expect(refused.error.message).toContain('environment variable DB: postgresql://postgres@127.0.0.1:');
      expect(refused.error.message).toContain('schema version 999, newer than this gateway knows');
      // The password never appears in a message.
      expect(refused.error.message).not.toContain(new URL(url).password);
    }
  });

  it('bring a database of an older gateway up to date: its approvals stay, with no approved definition, and OAuth records can be kept', async () => {
    const url = await server.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const hash = `sha256/v1:${'1'.repeat(64)}`;
    try {
      expect(await migratePostgres(client, POSTGRES_MIGRATIONS.slice(0, 1))).toEqual({ ok: true, applied: [1] });
      await client.query("INSERT INTO known_servers (server, first_seen_at) VALUES ('s', '2026-01-01T00:00:00Z')");
      await client.query(
        "INSERT INTO approvals (server, tool, status, approved_hash, current_hash, hash_schema_version, user_disabled, updated_at) VALUES ('s', 't', 'approved', $1, $1, 1, false, '2026-01-01T00:00:00Z')",
        [hash],
      );
    } finally {
      await client.end();
    }
    const { store } = await openOn(url);
    expect(await store.listApprovals()).toEqual([{ server: 's', tool: 't', status: 'approved', approved_hash: hash, current_hash: hash, hash_schema_version: 1, user_disabled: false }]);
    expect(await store.getApprovedDefinition('s', 't')).toBeUndefined();
    await store.setUpstreamOAuth('web', { tokens: { access_token: 'a' }, tokens_expire_at: 1 });
    expect(await store.getUpstreamOAuth('web')).toEqual({ tokens: { access_token: 'a' }, tokens_expire_at: 1 });
    const versions = await queryRows<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version');
    expect(versions.map((v) => v.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
  });

  it('let replicas start at once against an empty database: one creates the schema, all open', async () => {
    const url = await server.createDatabase();
    const stores = await Promise.all([openOn(url), openOn(url), openOn(url)]);
    expect(stores).toHaveLength(3);
    const versions = await queryRows<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version');
    expect(versions.map((v) => v.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
    await stores[0]!.store.markServersKnown(['alpha']);
    expect([...(await stores[2]!.store.listKnownServers()).keys()]).toEqual(['alpha']);
  });

  it('says which database cannot be reached, without its password', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-pgstore-'));
    dirs.push(dir);
    // A port that nothing listens on: the connection is refused at once.
    const url = 'postgresql://someone:hunter2-secret@127.0.0.1:1/nowhere';
    const result = await openConfiguredStore({ data_dir: dir, store: { kind: 'postgres', url, url_source: '/store/url', pool_size: 2 }, store_wal_limit_bytes: 0 }, () => undefined);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.message).toMatch(/^\/store\/url: cannot open the store postgresql:\/\/someone@127\.0\.0\.1:1\/nowhere: /);
      expect(result.error.message).not.toContain('hunter2');
    }
  });
});

describe('two stores on one database', () => {
  it('tell each other about every committed change of shared state, and nothing for a write that changed nothing', async () => {
    const url = await server.createDatabase();
    const a = await openOn(url);
    const b = await openOn(url);
    const atB = recordChanges(b.coordination);

    await a.store.markServersKnown(['alpha']);
    await atB.next((c) => c.topic === 'state');
    const created = await a.store.createAgentToken({ name: 'ci', token_sha256: 'c'.repeat(64), allowed_servers: ['alpha'] });
    expect(created.ok).toBe(true);
    await atB.next((c) => c.topic === 'tokens' && c.revoked === undefined);
    // What B reads is what A wrote.
    expect(await b.store.findAgentTokenBySha256('c'.repeat(64))).toMatchObject({ name: 'ci', allowed_servers: ['alpha'], revoked: false });
    expect(await a.store.revokeAgentToken('ci')).toBe(true);
    expect(await atB.next((c) => c.topic === 'tokens' && c.revoked !== undefined)).toEqual({ topic: 'tokens', revoked: 'ci' });
    await a.store.setUpstreamCredential('alpha', 'bearer-1');
    expect(await atB.next((c) => c.topic === 'credentials')).toEqual({ topic: 'credentials', server: 'alpha' });
    // A revocation that revokes nothing and a refused token announce nothing: the marker after them comes next.
    const before = atB.seen.length;
    expect(await a.store.revokeAgentToken('ci')).toBe(false);
    expect(await a.store.createAgentToken({ name: 'ci', token_sha256: 'd'.repeat(64), allowed_servers: ['*'] })).toEqual({ ok: false, code: 'token_name_taken' });
    await a.store.setServerOverride('alpha', { quarantined: true });
    await atB.next((c) => c.topic === 'state' && atB.seen.length > before);
    expect(atB.seen.slice(before)).toEqual([{ topic: 'state' }]);
  });

  it("announce an OAuth record written on one as its server's credentials on the other, which reads it", async () => {
    const url = await server.createDatabase();
    const a = await openOn(url);
    const b = await openOn(url);
    const atB = recordChanges(b.coordination);
    await a.store.setUpstreamOAuth('web', { tokens: { access_token: 'rotated', refresh_token: 'r2' }, tokens_expire_at: 42 });
    expect(await atB.next((c) => c.topic === 'credentials')).toEqual({ topic: 'credentials', server: 'web' });
    expect(await b.store.getUpstreamOAuth('web')).toEqual({ tokens: { access_token: 'rotated', refresh_token: 'r2' }, tokens_expire_at: 42 });
    // Deleting a record that is not there changes nothing and announces nothing: the marker after it comes next.
    const before = atB.seen.length;
    await a.store.setUpstreamOAuth('none', {});
    await a.store.setUpstreamOAuth('web', {});
    await atB.next(() => atB.seen.length > before);
    expect(atB.seen.slice(before)).toEqual([{ topic: 'credentials', server: 'web' }]);
    expect(await b.store.getUpstreamOAuth('web')).toBeUndefined();
  });

  it('never run two sections of one key at once, across stores', async () => {
    const url = await server.createDatabase();
    const stores = [await openOn(url), await openOn(url)];
    let inside = 0;
    let most = 0;
    const entered: number[] = [];
    const section = (who: number) => async () => {
      inside += 1;
      most = Math.max(most, inside);
      entered.push(who);
      // A real round trip inside the section, so that the other store's turn could come meanwhile.
      await stores[who]!.store.listKnownServers();
      await new Promise((resolve) => setTimeout(resolve, 20));
      inside -= 1;
    };
    await Promise.all(Array.from({ length: 8 }, (_, i) => stores[i % 2]!.coordination.withExclusive('refresh:oauth', section(i % 2))));
    expect(most).toBe(1);
    expect(entered.filter((who) => who === 0)).toHaveLength(4);
    expect(entered.filter((who) => who === 1)).toHaveLength(4);
  });
});

describe('losing the database', () => {
  it('makes the store unreachable (activity refused), then re-reads and recovers on its own once it is back', async () => {
    const url = await server.createDatabase();
    const lines: string[] = [];
    const { store, coordination } = await openOn(url, (line) => lines.push(line));
    const changes = recordChanges(coordination);
    const record = (id: string) => store.appendActivity({ type: 'preflight', timestamp: new Date().toISOString(), status: 'success', request_id: id, metadata: {} });
    await record('before');
    expect(coordination.reachable()).toBe(true);

    const outage = await server.outage(url);
    try {
      await eventually(() => expect(coordination.reachable()).toBe(false), 30_000);
      await expect(record('during')).rejects.toThrow(/unreachable/);
    } finally {
      await outage.end();
    }
    // Coming back is a re-read for every watcher first, then reachable again.
    await changes.next((c) => c.topic === 'resync');
    await eventually(() => expect(coordination.reachable()).toBe(true), 30_000);
    // The pool's connections died with the server: the next write opens new ones.
    await eventually(() => record('after'), 30_000);
    const ids = (await store.queryActivity({})).map((r) => r.request_id);
    expect(ids).toContain('before');
    expect(ids).toContain('after');
    expect(ids).not.toContain('during');
    expect(lines.some((line) => line.includes('lost the PostgreSQL change feed'))).toBe(true);
    expect(lines.some((line) => line.includes('change feed is back'))).toBe(true);
  });
});
