// The SQLite store writes the activity records appended in one event-loop turn in one transaction;
// every caller's promise settles only after its own record is committed.
import { describe, expect, it } from 'vitest';
import { openStore, type ActivityInput, type Store } from '../src/store/store.js';
import { cleanupAfterEach } from './cleanup-after-each.js';

const { scratch } = cleanupAfterEach();

function record(i: number, timestamp = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()): ActivityInput {
  return { type: 'preflight', timestamp, status: 'success', surface: 'rest', request_id: `r-${i}`, metadata: { verdict: 'ready', ids_count: 0, reasons: {}, per_tool: [] } };
}

function open(dir: string): Store {
  const opened = openStore(dir);
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.store;
}

describe('activity group commit', () => {
  it('commits a burst of concurrent appends, each resolving with its own id once readable', async () => {
    const store = open(scratch().file('data'));
    try {
      const stored = await Promise.all(Array.from({ length: 50 }, (_, i) => store.appendActivity(record(i))));
      expect(stored.map((s) => s.request_id)).toEqual(Array.from({ length: 50 }, (_, i) => `r-${i}`));
      const ids = stored.map((s) => s.id);
      expect(new Set(ids).size).toBe(50);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(await store.queryActivity({ limit: 1000 })).toHaveLength(50);
      // One settles before the next turn: a single append is readable right after its await.
      await store.appendActivity(record(99));
      expect(await store.queryActivity({ request_id: 'r-99' })).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it('rejects a bad record on its own, and a burst whose transaction fails as a whole', async () => {
    const store = open(scratch().file('data'));
    try {
      const results = await Promise.allSettled([store.appendActivity(record(1)), store.appendActivity(record(2, 'not a date')), store.appendActivity(record(3))]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      // Metadata that has no JSON text is refused on its own when it is appended (its text sizes the commit).
      const cyclic: Record<string, unknown> = {};
      cyclic['self'] = cyclic;
      const unwritable = await Promise.allSettled([store.appendActivity(record(4)), store.appendActivity({ ...record(5), metadata: cyclic })]);
      expect(unwritable.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
      // A record the database refuses (status is NOT NULL) fails its whole transaction.
      const burst = await Promise.allSettled([store.appendActivity(record(6)), store.appendActivity({ ...record(7), status: null as unknown as string })]);
      expect(burst.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect((await store.queryActivity({})).map((r) => r.request_id)).toEqual(['r-4', 'r-3', 'r-1']);
    } finally {
      store.close();
    }
  });

  it('writes what was accepted before close(), and refuses appends after it', async () => {
    const dir = scratch().file('data');
    const store = open(dir);
    const pending = Promise.all([store.appendActivity(record(1)), store.appendActivity(record(2))]);
    store.close();
    expect((await pending).map((s) => s.request_id)).toEqual(['r-1', 'r-2']);
    await expect(store.appendActivity(record(3))).rejects.toThrow(/closed/);
    const reopened = open(dir);
    try {
      expect((await reopened.queryActivity({})).map((r) => r.request_id)).toEqual(['r-2', 'r-1']);
    } finally {
      reopened.close();
    }
  });
});
