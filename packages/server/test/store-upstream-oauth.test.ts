// The store's OAuth record of an upstream (SQLite migration 3) kept across a reopen of the data
// directory (a gateway restart), in a real SQLite file. What every store does with the record (written
// whole, read back as written, deleted by an empty record, any JSON) is the store contract's
// (store-contract.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/store/store.js';
import { OAUTH_RECORD } from './store-contract.js';

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

describe('upstream OAuth records in the SQLite store', () => {
  it('keeps a record across a reopen, and a deleted one stays deleted', async () => {
    const dir = tempDir();
    const reopen = (store: Store) => {
      store.close();
      stores.splice(stores.indexOf(store), 1);
      return open(dir);
    };
    let store = open(dir);
    await store.setUpstreamOAuth('web', OAUTH_RECORD);
    await store.setUpstreamOAuth('other', { tokens: { access_token: 'x' } });
    store = reopen(store);
    expect(await store.getUpstreamOAuth('web')).toEqual(OAUTH_RECORD);
    await store.setUpstreamOAuth('web', {});
    store = reopen(store);
    expect(await store.getUpstreamOAuth('web')).toBeUndefined();
    expect(await store.getUpstreamOAuth('other')).toEqual({ tokens: { access_token: 'x' } });
  });
});
