// The store's OAuth record of an upstream (migration 2): written whole, read back as written, deleted
// by an empty record, and kept across a reopen of the data directory (a gateway restart), in a real
// SQLite file. Its JSON parts are stored as given: any object round-trips (fast-check).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store, type UpstreamOAuthRecord } from '../src/store/store.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(dir: string): Store {
  const opened = openStore(dir);
  if (!opened.ok) throw new Error(opened.error.message);
  stores.push(opened.store);
  return opened.store;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-oauth-store-'));
  dirs.push(dir);
  return dir;
}

const RECORD: UpstreamOAuthRecord = {
  client: { client_id: 'c-1', issuer: 'https://as.example' },
  tokens: { access_token: 'at', refresh_token: 'rt', token_type: 'Bearer', expires_in: 60 },
  tokens_expire_at: 1_700_000_060_000,
  discovery: { resource: 'https://mcp.example/mcp' },
  pending: { state_sha256: 'ab', code_verifier: 'v', redirect_uri: 'http://127.0.0.1:8799/oauth/callback', expires_at: 1 },
};

describe('upstream OAuth records in the SQLite store', () => {
  it('round-trips a record per server, survives a reopen, and an empty record deletes it', async () => {
    const dir = tempDir();
    let store = open(dir);
    expect(await store.getUpstreamOAuth('web')).toBeUndefined();
    await store.setUpstreamOAuth('web', RECORD);
    await store.setUpstreamOAuth('other', { tokens: { access_token: 'x' } });
    expect(await store.getUpstreamOAuth('web')).toEqual(RECORD);
    store.close();
    stores.pop();

    store = open(dir);
    expect(await store.getUpstreamOAuth('web')).toEqual(RECORD);
    const { pending: _spent, ...withoutPending } = RECORD;
    await store.setUpstreamOAuth('web', withoutPending);
    expect(await store.getUpstreamOAuth('web')).toEqual(withoutPending);
    await store.setUpstreamOAuth('web', {});
    expect(await store.getUpstreamOAuth('web')).toBeUndefined();
    expect(await store.getUpstreamOAuth('other')).toEqual({ tokens: { access_token: 'x' } });
  });

  it('an expiry without tokens is not kept (it belongs to the tokens)', async () => {
    const store = open(tempDir());
    await store.setUpstreamOAuth('web', { discovery: { resource: 'r' }, tokens_expire_at: 5 });
    expect(await store.getUpstreamOAuth('web')).toEqual({ discovery: { resource: 'r' } });
  });

  it('any JSON object in any part, under any server name, reads back as written', async () => {
    const store = open(tempDir());
    const json = fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 6 });
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), json, fc.option(json, { nil: undefined }), async (server, tokens, client) => {
        const record: UpstreamOAuthRecord = { tokens, ...(client === undefined ? {} : { client }) };
        await store.setUpstreamOAuth(server, record);
        expect(await store.getUpstreamOAuth(server)).toEqual(JSON.parse(JSON.stringify(record)));
      }),
      { numRuns: 100 },
    );
  });
});
