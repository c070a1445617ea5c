// Checkpoints run on the store's own thread: no connection of the event loop checkpoints (that fsync
// stalled answers for tens of milliseconds), yet the WAL is folded into the database within about a
// second, and close() waits for the thread so the last connection leaves no WAL behind.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, STORE_FILE_NAME, type ActivityInput, type Store } from '../src/store/store.js';
import { cleanupAfterEach } from './cleanup-after-each.js';

const { scratch } = cleanupAfterEach();

function open(dir: string): Store {
  const opened = openStore(dir);
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.store;
}

function record(i: number): ActivityInput {
  const per_tool = Array.from({ length: 50 }, (_, t) => ({ id: `server-${t}:tool-${i}`, status: 'ready' }));
  return { type: 'preflight', timestamp: new Date().toISOString(), status: 'success', surface: 'rest', request_id: `r-${i}`, metadata: { verdict: 'ready', ids_count: 50, reasons: {}, per_tool } };
}

const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);

describe('WAL checkpoints on the store thread', () => {
  it('folds committed pages into the database soon after they are written, and close() leaves no WAL', async () => {
    const dir = scratch().file('data');
    const db = join(dir, STORE_FILE_NAME);
    const store = open(dir);
    const before = sizeOf(db);
    for (let burst = 0; burst < 20; burst++) await Promise.all(Array.from({ length: 100 }, (_, i) => store.appendActivity(record(burst * 100 + i))));
    // 2,000 records of ~2 KB: megabytes of WAL, none of it in the database file yet unless a checkpoint ran.
    expect(sizeOf(`${db}-wal`)).toBeGreaterThan(1_000_000);
    const deadline = Date.now() + 5_000;
    while (sizeOf(db) < before + 1_000_000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sizeOf(db)).toBeGreaterThan(before + 1_000_000);
    expect(await store.queryActivity({ limit: 1000 })).toHaveLength(1000);
    store.close();
    expect(existsSync(`${db}-wal`)).toBe(false);
    const reopened = open(dir);
    try {
      expect((await reopened.queryActivity({ request_id: 'r-1999' })).map((r) => r.request_id)).toEqual(['r-1999']);
    } finally {
      reopened.close();
    }
  });
});
