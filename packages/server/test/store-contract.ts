// The behaviour every Store implementation shares, run against each of them: the SQLite file
// (store-sqlite.test.ts) and PostgreSQL (store-postgres.test.ts). A new Store method gets its cases
// here, so both implementations are held to them.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreCoordination } from '../src/store/store-coordination.js';
import type { ActivityInput, Store, StoredApproval, UpstreamOAuthRecord } from '../src/store/store.js';

export interface ContractStore {
  readonly store: Store;
  readonly coordination: StoreCoordination;
}

/** Declares the contract's tests; `open` gives a new, empty store each time it is called. */
export function storeContract(kind: string, open: () => Promise<ContractStore>): void {
  const opened: ContractStore[] = [];
  afterEach(async () => {
    for (const { store, coordination } of opened.splice(0)) {
      store.close();
      await coordination.closed();
    }
  });
  const freshPair = async (): Promise<ContractStore> => {
    const pair = await open();
    opened.push(pair);
    return pair;
  };
  const fresh = async (): Promise<Store> => (await freshPair()).store;

  describe(`store contract: ${kind}`, () => {
    it('saves and replaces approval records, only for known servers', async () => {
      const store = await fresh();
      await expect(
        store.saveApprovals([{ server: 'ghost', tool: 't', status: 'pending', hash_schema_version: 1, user_disabled: false }]),
      ).rejects.toThrow(/foreign key/i);
      await store.markServersKnown(['alpha', 'beta', 'alpha']);
      await store.saveApprovals([
        { server: 'beta', tool: 'b', status: 'pending', current_hash: 'sha256/v1:bb', hash_schema_version: 1, user_disabled: false },
        { server: 'alpha', tool: 'a', status: 'approved', approved_hash: 'sha256/v1:aa', current_hash: 'sha256/v1:aa', hash_schema_version: 1, user_disabled: false },
      ]);
      await store.saveApprovals([
        { server: 'alpha', tool: 'a', status: 'changed', approved_hash: 'sha256/v1:aa', current_hash: 'sha256/v1:a2', hash_schema_version: 1, user_disabled: true },
      ]);
      expect(await store.listApprovals()).toEqual([
        { server: 'alpha', tool: 'a', status: 'changed', approved_hash: 'sha256/v1:aa', current_hash: 'sha256/v1:a2', hash_schema_version: 1, user_disabled: true },
        { server: 'beta', tool: 'b', status: 'pending', current_hash: 'sha256/v1:bb', hash_schema_version: 1, user_disabled: false },
      ]);
    });

    it('remembers known servers and when their baseline was approved, once', async () => {
      const store = await fresh();
      await store.markServersKnown(['alpha']);
      expect((await store.listKnownServers()).get('alpha')?.baseline_at).toBeUndefined();
      await store.markBaselineApproved('alpha');
      const first = (await store.listKnownServers()).get('alpha')?.baseline_at;
      expect(first).toBeDefined();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.markBaselineApproved('alpha');
      expect((await store.listKnownServers()).get('alpha')?.baseline_at).toBe(first);
      // a server not seen before becomes known by it
      await store.markBaselineApproved('beta');
      expect([...(await store.listKnownServers()).keys()]).toEqual(['alpha', 'beta']);
    });

    it('keeps server overrides per key, and an empty override removes the row', async () => {
      const store = await fresh();
      await store.setServerOverride('alpha', { quarantined: false });
      await store.setServerOverride('beta', { enabled: false, quarantined: true });
      expect(await store.listServerOverrides()).toEqual(
        new Map([
          ['alpha', { quarantined: false }],
          ['beta', { enabled: false, quarantined: true }],
        ]),
      );
      await store.setServerOverride('alpha', {});
      expect([...(await store.listServerOverrides()).keys()]).toEqual(['beta']);
    });

    it('stores agent tokens by hash, refuses duplicates, revokes once', async () => {
      const store = await fresh();
      const sha = 'a'.repeat(64);
      const created = await store.createAgentToken({ name: 'ci', token_sha256: sha, allowed_servers: ['alpha'], profile: 'dev' });
      expect(created.ok).toBe(true);
      expect(await store.createAgentToken({ name: 'ci', token_sha256: 'b'.repeat(64), allowed_servers: ['*'] })).toEqual({ ok: false, code: 'token_name_taken' });
      expect(await store.createAgentToken({ name: 'other', token_sha256: sha, allowed_servers: ['*'] })).toEqual({ ok: false, code: 'token_secret_taken' });
      const found = await store.findAgentTokenBySha256(sha);
      expect(found).toMatchObject({ name: 'ci', allowed_servers: ['alpha'], profile: 'dev', revoked: false });
      expect(Number.isNaN(Date.parse(found!.created_at))).toBe(false);
      expect(await store.findAgentTokenBySha256('c'.repeat(64))).toBeUndefined();
      expect(await store.revokeAgentToken('ci')).toBe(true);
      expect(await store.revokeAgentToken('ci')).toBe(false);
      expect(await store.revokeAgentToken('nobody')).toBe(false);
      expect((await store.listAgentTokens()).map((t) => [t.name, t.revoked])).toEqual([['ci', true]]);
    });

    it('keeps upstream bearer credentials', async () => {
      const store = await fresh();
      expect(await store.getUpstreamCredential('remote')).toBeUndefined();
      await store.setUpstreamCredential('remote', 'secret-1');
      await store.setUpstreamCredential('remote', 'secret-2');
      expect(await store.getUpstreamCredential('remote')).toBe('secret-2');
      expect(await store.deleteUpstreamCredential('remote')).toBe(true);
      expect(await store.deleteUpstreamCredential('remote')).toBe(false);
    });

    it('appends and queries the activity log: filters, newest first, paging', async () => {
      const store = await fresh();
      const base = Date.parse('2026-01-01T00:00:00.000Z');
      for (let i = 0; i < 10; i += 1) {
        await store.appendActivity({
          type: i % 2 === 0 ? 'preflight' : 'tool_call',
          timestamp: new Date(base + i * 60_000).toISOString(),
          status: 'success',
          ...(i % 2 === 0 ? { surface: 'rest' } : {}),
          request_id: `req-${i}`,
          metadata: { n: i, nested: { ok: true } },
        });
      }
      const all = await store.queryActivity({});
      expect(all.map((r) => r.request_id)).toEqual(['req-9', 'req-8', 'req-7', 'req-6', 'req-5', 'req-4', 'req-3', 'req-2', 'req-1', 'req-0']);
      expect(all[0]).toEqual({
        id: 10,
        type: 'tool_call',
        timestamp: '2026-01-01T00:09:00.000Z',
        status: 'success',
        request_id: 'req-9',
        metadata: { n: 9, nested: { ok: true } },
      });
      expect((await store.queryActivity({ type: 'preflight' })).map((r) => r.request_id)).toEqual(['req-8', 'req-6', 'req-4', 'req-2', 'req-0']);
      expect((await store.queryActivity({ request_id: 'req-3' })).map((r) => r.id)).toEqual([4]);
      const window = await store.queryActivity({ since: '2026-01-01T00:02:00Z', until: '2026-01-01T00:04:00Z' });
      expect(window.map((r) => r.request_id)).toEqual(['req-4', 'req-3', 'req-2']);
      expect((await store.queryActivity({ limit: 3, offset: 2 })).map((r) => r.request_id)).toEqual(['req-7', 'req-6', 'req-5']);
      await expect(store.queryActivity({ since: 'yesterday' })).rejects.toThrow(RangeError);
    });

    it('orders by timestamp even when records arrive out of order', async () => {
      const store = await fresh();
      await store.appendActivity({ type: 't', timestamp: '2026-01-02T00:00:00Z', status: 's', request_id: 'late', metadata: {} });
      await store.appendActivity({ type: 't', timestamp: '2026-01-01T00:00:00Z', status: 's', request_id: 'early', metadata: {} });
      expect((await store.queryActivity({})).map((r) => r.request_id)).toEqual(['late', 'early']);
    });

    it('prunes the activity log by age and by count', async () => {
      const store = await fresh();
      const now = new Date('2026-03-31T00:00:00Z');
      for (let day = 0; day < 40; day += 1) {
        await store.appendActivity({
          type: 'preflight',
          timestamp: new Date(now.getTime() - day * 86_400_000 - 1000).toISOString(),
          status: 'success',
          request_id: `d${day}`,
          metadata: {},
        });
      }
      expect(await store.pruneActivity({ maxRecords: 10_000, maxAgeDays: 30 }, now)).toBe(10);
      expect((await store.queryActivity({ limit: 1000 })).length).toBe(30);
      expect(await store.pruneActivity({ maxRecords: 5, maxAgeDays: 30 }, now)).toBe(25);
      expect((await store.queryActivity({ limit: 1000 })).map((r) => r.request_id)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
    });

    it('keeps the count limit of the last retention pass as it writes, always the newest records', async () => {
      const store = await fresh();
      const at = '2026-03-31T00:00:00.000Z';
      const limit = 50;
      expect(await store.pruneActivity({ maxRecords: limit, maxAgeDays: 30 }, new Date(at))).toBe(0);
      const append = (i: number) => store.appendActivity({ type: 'preflight', timestamp: at, status: 'success', request_id: `r${i}`, metadata: {} });
      // Each store trims in its own steps (PostgreSQL every 1,000 records, SQLite a whole segment at a
      // time, store-sqlite.test.ts), never letting more than 1,000 records and a batch past the limit.
      const mostPastLimit = 1000;
      const batch = 10;
      let written = 0;
      let trimmed = false;
      while (written < 1100) {
        await Promise.all(Array.from({ length: batch }, (_, i) => append(written + i)));
        written += batch;
        const kept = (await store.queryActivity({ limit: 1000 })).map((r) => r.request_id);
        expect(kept.length, `after ${written} records`).toBeLessThan(limit + mostPastLimit + batch);
        if (written >= limit) expect(kept.length, `after ${written} records`).toBeGreaterThanOrEqual(limit);
        // Always the newest ones, none missing in between.
        expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => `r${written - 1 - i}`));
        // A query gives 1,000 at most: fewer than that and than written means some were trimmed.
        trimmed ||= kept.length < Math.min(written, 1000);
      }
      expect(trimmed).toBe(true);
    });

    it('rejects calls after close instead of answering from a dead handle', async () => {
      const store = await fresh();
      store.close();
      store.close();
      await expect(store.listApprovals()).rejects.toThrow();
    });

    it('keeps the last of two records of one tool saved together', async () => {
      const store = await fresh();
      await store.markServersKnown(['alpha']);
      await store.saveApprovals([
        { server: 'alpha', tool: 't', status: 'pending', current_hash: 'sha256/v1:01', hash_schema_version: 1, user_disabled: false },
        { server: 'alpha', tool: 't', status: 'approved', approved_hash: 'sha256/v1:02', current_hash: 'sha256/v1:02', hash_schema_version: 1, user_disabled: true },
      ]);
      expect(await store.listApprovals()).toEqual([
        { server: 'alpha', tool: 't', status: 'approved', approved_hash: 'sha256/v1:02', current_hash: 'sha256/v1:02', hash_schema_version: 1, user_disabled: true },
      ]);
    });

    it('refuses an activity record whose timestamp is not a date, and writes nothing', async () => {
      const store = await fresh();
      await expect(store.appendActivity({ type: 't', timestamp: 'noon', status: 's', request_id: 'r', metadata: {} })).rejects.toThrow(/not a date: noon/);
      expect(await store.queryActivity({})).toEqual([]);
    });

    it('keeps the approved definition while the approved hash stays, replaces it with a new one, clears it when the hash moves without one', async () => {
      const store = await fresh();
      await store.markServersKnown(['s']);
      await store.saveApprovals([approval({ approved_definition: '{"description":"v1"}' })]);
      expect(await store.getApprovedDefinition('s', 't')).toBe('{"description":"v1"}');
      // A rug-pull: same approved hash, another current one, no definition given: the approved one stays.
      await store.saveApprovals([approval({ status: 'changed', current_hash: H2 })]);
      expect(await store.getApprovedDefinition('s', 't')).toBe('{"description":"v1"}');
      await store.saveApprovals([approval({ approved_hash: H2, current_hash: H2, approved_definition: '{"description":"v2"}' })]);
      expect(await store.getApprovedDefinition('s', 't')).toBe('{"description":"v2"}');
      // A new approved hash without a definition must not keep the old hash's definition.
      await store.saveApprovals([approval({ approved_hash: H1 })]);
      expect(await store.getApprovedDefinition('s', 't')).toBeUndefined();
      expect(await store.getApprovedDefinition('s', 'unknown')).toBeUndefined();
      // listApprovals stays lean: the definitions are read one by one.
      expect((await store.listApprovals())[0]).not.toHaveProperty('approved_definition');
    });

    it('applies records of one tool saved together in order, definitions included', async () => {
      const store = await fresh();
      await store.markServersKnown(['s']);
      await store.saveApprovals([approval({ tool: 'kept', approved_definition: '"d1"' }), approval({ tool: 'kept', status: 'changed', current_hash: H2 })]);
      await store.saveApprovals([approval({ tool: 'moved', approved_definition: '"d1"' })]);
      await store.saveApprovals([approval({ tool: 'moved', approved_hash: H2, approved_definition: '"d2"' }), approval({ tool: 'moved' })]);
      expect(await store.getApprovedDefinition('s', 'kept')).toBe('"d1"');
      expect(await store.listApprovals()).toEqual([
        { server: 's', tool: 'kept', status: 'changed', approved_hash: H1, current_hash: H2, hash_schema_version: 1, user_disabled: false },
        { server: 's', tool: 'moved', status: 'approved', approved_hash: H1, current_hash: H1, hash_schema_version: 1, user_disabled: false },
      ]);
      // H1 -> H2 (with d2) -> H1 again without one: the hash moved twice, nothing of it is kept.
      expect(await store.getApprovedDefinition('s', 'moved')).toBeUndefined();
    });

    it('finds tool calls to a server and preflights that asked for one of its tools, and preflights by verdict', async () => {
      const store = await fresh();
      await preflight(store, 'p1', 1, 'ready', ['alpha:echo']);
      await preflight(store, 'p2', 2, 'blocked', ['beta:x', 'alpha_2:y']);
      // "alpha" must not match "alpha_2" (a LIKE pattern would: _ is its wildcard), nor an ID without the colon.
      await preflight(store, 'p3', 3, 'unknown_ids', ['alphabet:z', 'alpha']);
      await toolCall(store, 'c1', 4, 'alpha');
      await toolCall(store, 'c2', 5, 'beta');
      const ids = async (query: Parameters<Store['queryActivity']>[0]) => (await store.queryActivity(query)).map((found) => found.request_id);
      expect(await ids({ server: 'alpha' })).toEqual(['c1', 'p1']);
      expect(await ids({ server: 'alpha_2' })).toEqual(['p2']);
      expect(await ids({ server: 'beta' })).toEqual(['c2', 'p2']);
      expect(await ids({ verdict: 'ready' })).toEqual(['p1']);
      expect(await ids({ verdict: 'blocked', server: 'beta' })).toEqual(['p2']);
      expect(await ids({ verdict: 'ready', type: 'tool_call' })).toEqual([]);
    });

    it('searches by server and verdict past records a caller filled with odd text, and matches only their per-tool IDs', async () => {
      const store = await fresh();
      // IDs are the caller's: a NUL, a lone surrogate, quotes and backslashes are all valid (and stored as written).
      await preflight(store, 'odd', 1, 'unknown_ids', ['al\u0000pha:x', 'beta\ud800:y', 'ga"m\\ma:z', 'alpha:\u0000']);
      // Check mode keeps the raw arguments: an "id" or "verdict" in them is not the record's.
      await store.appendActivity({
        type: 'preflight',
        timestamp: at(2),
        status: 'success',
        surface: 'mcp',
        request_id: 'args',
        metadata: { verdict: 'blocked', ids_count: 1, reasons: {}, per_tool: [{ id: 'delta:t', status: 'ready' }], surface: 'mcp-check', arguments: { id: 'alpha:x', verdict: 'ready', per_tool: [{ id: 'alpha:x' }] } },
      });
      await toolCall(store, 'call', 3, 'gamma');
      const ids = async (query: Parameters<Store['queryActivity']>[0]) => (await store.queryActivity(query)).map((found) => found.request_id);
      expect(await ids({ server: 'alpha' })).toEqual(['odd']);
      expect(await ids({ server: 'beta\ud800' })).toEqual(['odd']);
      expect(await ids({ server: 'ga"m\\ma' })).toEqual(['odd']);
      expect(await ids({ server: 'delta' })).toEqual(['args']);
      expect(await ids({ verdict: 'ready' })).toEqual([]);
      expect(await ids({ verdict: 'unknown_ids' })).toEqual(['odd']);
      expect(await ids({ server: 'gamma' })).toEqual(['call']);
      // The other filters too find nothing rather than fail on such text.
      expect(await ids({ request_id: 'o\u0000dd' })).toEqual([]);
      expect(await ids({ type: 'pre\u0000flight' })).toEqual([]);
    });

    it("pages through a server's records with limit and offset, however few of the records are its", async () => {
      const store = await fresh();
      const records: Promise<unknown>[] = [];
      // 1,200 records, one in four a tool call to alpha: paging must count only those.
      for (let i = 0; i < 1200; i += 1) {
        const id = `r${String(i).padStart(4, '0')}`;
        records.push(i % 4 === 0 ? toolCall(store, id, 0, 'alpha', i) : toolCall(store, id, 0, 'other', i));
      }
      await Promise.all(records);
      const page = await store.queryActivity({ server: 'alpha', limit: 20, offset: 250 });
      // Newest first: alpha's records are r1196, r1192, ...; the 251st is r0196.
      expect(page.map((r) => r.request_id)).toEqual(Array.from({ length: 20 }, (_, k) => `r${String(1196 - 4 * (250 + k)).padStart(4, '0')}`));
      expect(await store.queryActivity({ server: 'alpha', limit: 10, offset: 298 })).toHaveLength(2);
      expect(await store.queryActivity({ server: 'alpha', limit: 0 })).toEqual([]);
    });

    it("keeps an upstream's OAuth record per server, read back as written, and an empty record deletes it", async () => {
      const store = await fresh();
      expect(await store.getUpstreamOAuth('web')).toBeUndefined();
      await store.setUpstreamOAuth('web', OAUTH_RECORD);
      await store.setUpstreamOAuth('other', { tokens: { access_token: 'x' } });
      expect(await store.getUpstreamOAuth('web')).toEqual(OAUTH_RECORD);
      const { pending: _spent, ...withoutPending } = OAUTH_RECORD;
      await store.setUpstreamOAuth('web', withoutPending);
      expect(await store.getUpstreamOAuth('web')).toEqual(withoutPending);
      await store.setUpstreamOAuth('web', {});
      expect(await store.getUpstreamOAuth('web')).toBeUndefined();
      await store.setUpstreamOAuth('web', {});
      expect(await store.getUpstreamOAuth('other')).toEqual({ tokens: { access_token: 'x' } });
      // The expiry belongs to the tokens: without them it is not kept, and it alone is no record.
      await store.setUpstreamOAuth('web', { discovery: { resource: 'r' }, tokens_expire_at: 5 });
      expect(await store.getUpstreamOAuth('web')).toEqual({ discovery: { resource: 'r' } });
      await store.setUpstreamOAuth('web', { tokens_expire_at: 5 });
      expect(await store.getUpstreamOAuth('web')).toBeUndefined();
    });

    it('reads back any JSON object in any part of an OAuth record, under any server name', async () => {
      const store = await fresh();
      const json = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 });
      await fc.assert(
        fc.asyncProperty(fc.string({ minLength: 1 }), json, fc.option(json, { nil: undefined }), fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: undefined }), async (server, tokens, client, expiry) => {
          const record: UpstreamOAuthRecord = { tokens, ...(client === undefined ? {} : { client }), ...(expiry === undefined ? {} : { tokens_expire_at: expiry }) };
          await store.setUpstreamOAuth(server, record);
          expect(await store.getUpstreamOAuth(server)).toEqual(JSON.parse(JSON.stringify(record)));
        }),
        { numRuns: 100 },
      );
    });

    it('runs exclusive sections of one key one at a time, in order, and a failed one frees the key', async () => {
      const { coordination } = await freshPair();
      const events: string[] = [];
      const section = (name: string, fail = false) => async () => {
        events.push(`${name} in`);
        // Gives the others every chance to enter while this one holds the key.
        for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
        events.push(`${name} out`);
        if (fail) throw new Error(`${name} failed`);
        return name;
      };
      const results = await Promise.allSettled([
        coordination.withExclusive('k', section('a')),
        coordination.withExclusive('k', section('b', true)),
        coordination.withExclusive('k', section('c')),
      ]);
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['a', 'b failed', 'c']);
      expect(events).toEqual(['a in', 'a out', 'b in', 'b out', 'c in', 'c out']);
    });

    it('lets sections of different keys run side by side', async () => {
      const { coordination } = await freshPair();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = coordination.withExclusive('one', () => held);
      // Would wait for ever if the keys excluded each other.
      await coordination.withExclusive('two', async () => release());
      await first;
    });
  });
}

const H1 = `sha256/v1:${'1'.repeat(64)}`;
const H2 = `sha256/v1:${'2'.repeat(64)}`;

function approval(extra: Partial<StoredApproval>): StoredApproval {
  return { server: 's', tool: 't', status: 'approved', approved_hash: H1, current_hash: H1, hash_schema_version: 1, user_disabled: false, ...extra };
}

function at(second: number, ms = 0): string {
  return new Date(Date.UTC(2026, 0, 1, 0, 0, second, ms)).toISOString();
}

function preflight(store: Store, id: string, second: number, verdict: string, ids: readonly string[]) {
  const record: ActivityInput = {
    type: 'preflight',
    timestamp: at(second),
    status: verdict === 'ready' ? 'success' : 'blocked',
    surface: 'rest',
    request_id: id,
    metadata: { verdict, ids_count: ids.length, reasons: {}, per_tool: ids.map((tool) => ({ id: tool, status: 'ready' })) },
  };
  return store.appendActivity(record);
}

function toolCall(store: Store, id: string, second: number, server: string, ms = 0) {
  return store.appendActivity({ type: 'tool_call', timestamp: at(second, ms), status: 'success', request_id: id, metadata: { server, tool: 'echo', outcome: 'success', duration_ms: 1 } });
}

/** An OAuth record with every part. */
export const OAUTH_RECORD: UpstreamOAuthRecord = {
  client: { client_id: 'c-1', issuer: 'https://as.example' },
  tokens: { access_token: 'at', refresh_token: 'rt', token_type: 'Bearer', expires_in: 60 },
  tokens_expire_at: 1_700_000_060_000,
  discovery: { resource: 'https://mcp.example/mcp' },
  pending: { state_sha256: 'ab', code_verifier: 'v', redirect_uri: 'http://127.0.0.1:8799/oauth/callback', expires_at: 1 },
};
