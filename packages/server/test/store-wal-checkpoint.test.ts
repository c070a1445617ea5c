// Checkpoints move to the store's own thread once activity records stream in: from then on the event
// loop's connection never checkpoints (its fsyncs stalled answers for tens of milliseconds), yet the
// WAL is folded into the database within about a second, and close() waits for the thread so the
// last connection leaves no WAL behind. A store that writes little never pays for the thread.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_THREAD_AFTER_RECORDS } from '../src/store/sqlite-store.js';
import { DEFAULT_WAL_LIMIT_BYTES } from '../src/store/wal-limit.js';
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

/** What the checkpoint thread sets (wal-checkpoint-thread.ts): not imported, that module is the thread itself. */
const CHECKPOINT_THREAD_NICE = 10;

/** The nice value in a /proc stat file (field 19; the command name before it may hold spaces). */
function niceOf(statFile: string): number {
  const stat = readFileSync(statFile, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** This process's threads at a nice value (Linux schedules each thread with its own). */
function threadsAtNice(nice: number): number {
  let count = 0;
  for (const task of readdirSync('/proc/self/task')) {
    try {
      if (niceOf(`/proc/self/task/${task}/stat`) === nice) count++;
    } catch {
      // a thread that ended meanwhile
    }
  }
  return count;
}

const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);

async function append(store: Store, count: number, from = 0): Promise<void> {
  for (let done = 0; done < count; done += 500) {
    await Promise.all(Array.from({ length: Math.min(500, count - done) }, (_, i) => store.appendActivity(record(from + done + i))));
  }
}

async function grows(file: string, beyond: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (sizeOf(file) > beyond) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return sizeOf(file) > beyond;
}

describe('WAL checkpoints', () => {
  it('stay off the event loop and off a thread while little is written', async () => {
    const dir = scratch().file('data');
    const db = join(dir, STORE_FILE_NAME);
    const store = open(dir);
    try {
      const before = sizeOf(db);
      await append(store, 2_000);
      // Megabytes of WAL, far below SQLite's automatic checkpoint (64 MiB): none of it in the database yet.
      expect(sizeOf(`${db}-wal`)).toBeGreaterThan(1_000_000);
      expect(await grows(db, before + 1_000_000, 1_500)).toBe(false);
    } finally {
      store.close();
    }
    // The last connection's close folds the WAL in.
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(sizeOf(db)).toBeGreaterThan(1_000_000);
  });

  it('run on the store thread once records stream in, within about a second, and close() leaves no WAL', async () => {
    const dir = scratch().file('data');
    const db = join(dir, STORE_FILE_NAME);
    const store = open(dir);
    const before = sizeOf(db);
    const niceBefore = threadsAtNice(CHECKPOINT_THREAD_NICE);
    await append(store, CHECKPOINT_THREAD_AFTER_RECORDS + 2_000);
    // The thread checkpoints at a lower priority than the event loop, whose own stays as it was.
    expect(threadsAtNice(CHECKPOINT_THREAD_NICE)).toBe(niceBefore + 1);
    expect(niceOf('/proc/thread-self/stat')).toBe(0);
    // Tens of megabytes written, and the log held under its limit (store-wal-limit.test.ts) all along.
    expect(sizeOf(`${db}-wal`)).toBeLessThan(DEFAULT_WAL_LIMIT_BYTES);
    expect(await grows(db, before + 10_000_000, 5_000)).toBe(true);
    expect(await store.queryActivity({ limit: 1000 })).toHaveLength(1000);
    store.close();
    expect(existsSync(`${db}-wal`)).toBe(false);
    const reopened = open(dir);
    try {
      const last = `r-${CHECKPOINT_THREAD_AFTER_RECORDS + 1_999}`;
      expect((await reopened.queryActivity({ request_id: last })).map((r) => r.request_id)).toEqual([last]);
    } finally {
      reopened.close();
    }
  });
});
