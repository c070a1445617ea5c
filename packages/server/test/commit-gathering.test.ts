// The SQLite store's group-commit policy (commit-gathering.ts): a commit waits a turn for more
// records only while siblings are active and records keep coming, and never past the window. The
// policy alone, under any schedule (fast-check), then the store with a clock of the test's own.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CommitGathering, GATHER_WINDOW_MS } from '../src/store/commit-gathering.js';
import { openStore, type ActivityInput, type AppendedActivity, type Store } from '../src/store/store.js';
import { cleanupAfterEach } from './cleanup-after-each.js';

const { scratch } = cleanupAfterEach();

/** A clock the test moves by hand (milliseconds). */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

/** A policy on a manual clock whose last commit carried `records` records, just now. */
function gatheringAfter(records: number): { clock: ReturnType<typeof manualClock>; gathering: CommitGathering } {
  const clock = manualClock();
  const gathering = new CommitGathering(clock.now);
  gathering.committed(records);
  return { clock, gathering };
}

describe('CommitGathering', () => {
  it('never waits after a commit of one record: a caller writing one at a time is never held back', () => {
    const { gathering } = gatheringAfter(1);
    expect(gathering.shouldWait(1)).toBe(false);
  });

  it('waits while records keep coming after a commit of several, and commits on the first turn that brings none', () => {
    const { clock, gathering } = gatheringAfter(5);
    clock.advance(0.05);
    expect(gathering.shouldWait(2)).toBe(true);
    clock.advance(0.05);
    expect(gathering.shouldWait(5)).toBe(true);
    clock.advance(0.05);
    expect(gathering.shouldWait(5)).toBe(false);
  });

  it('does not wait past the window, however many records keep coming', () => {
    const { clock, gathering } = gatheringAfter(5);
    let pending = 1;
    const answers: boolean[] = [];
    for (let turn = 0; turn < 10; turn++) {
      answers.push(gathering.shouldWait(pending++));
      clock.advance(GATHER_WINDOW_MS / 4);
    }
    expect(answers).toEqual([true, true, true, true, false, false, false, false, false, false]);
  });

  it('does not wait when the last commit is older than the window (no siblings any more)', () => {
    const { clock, gathering } = gatheringAfter(8);
    clock.advance(GATHER_WINDOW_MS);
    expect(gathering.shouldWait(3)).toBe(false);
  });

  it('under any schedule: waits only on growth, only after a commit of several within the window, never past it', () => {
    const step = fc.record({ advance: fc.double({ min: 0, max: 0.4, noNaN: true }), arrivals: fc.nat({ max: 4 }) });
    fc.assert(
      fc.property(fc.nat({ max: 12 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.array(step, { minLength: 1, maxLength: 20 }), (lastBatch, sinceCommit, steps) => {
        const clock = manualClock();
        const gathering = new CommitGathering(clock.now);
        gathering.committed(lastBatch);
        const committedAt = clock.now();
        clock.advance(sinceCommit);
        // The first record of the batch arrives now: it never waits longer than the window.
        const firstAt = clock.now();
        let pending = 1;
        let seen = 0;
        for (const { advance, arrivals } of steps) {
          const waits = gathering.shouldWait(pending);
          const now = clock.now();
          if (waits) {
            expect(pending).toBeGreaterThan(seen);
            expect(lastBatch).toBeGreaterThan(1);
            expect(now - committedAt).toBeLessThan(GATHER_WINDOW_MS);
            expect(now - firstAt).toBeLessThan(GATHER_WINDOW_MS);
          } else {
            return; // the store commits here; the policy is asked again only for the next batch
          }
          seen = pending;
          pending += arrivals;
          clock.advance(advance);
        }
      }),
    );
  });
});

function record(i: number): ActivityInput {
  return { type: 'preflight', timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), status: 'success', surface: 'rest', request_id: `r-${i}`, metadata: { verdict: 'ready', ids_count: 0, reasons: {}, per_tool: [] } };
}

function open(dir: string, commitClock: () => number): Store {
  const opened = openStore(dir, { commitClock });
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.store;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A store in a fresh directory on a clock the test moves, closed after `body`. */
async function withStore(body: (store: Store, clock: ReturnType<typeof manualClock>) => Promise<void>): Promise<void> {
  const clock = manualClock();
  const store = open(scratch().file('data'), clock.now);
  try {
    await body(store, clock);
  } finally {
    store.close();
  }
}

/** The appends' promises, with whether each has settled yet. */
function tracked(promises: Promise<AppendedActivity>[]): { all: Promise<AppendedActivity[]>; settled: () => number } {
  let settled = 0;
  for (const p of promises) void p.then(() => settled++, () => settled++);
  return { all: Promise.all(promises), settled: () => settled };
}

describe('the SQLite store gathers records of consecutive turns into one commit', () => {
  it('holds a wave back while the next one arrives, then commits both; every record written before it resolves', () =>
    withStore(async (store) => {
      await Promise.all([1, 2, 3].map((i) => store.appendActivity(record(i))));
      const first = tracked([4, 5].map((i) => store.appendActivity(record(i))));
      await nextTurn();
      // The first wave is still pending: the store waited for more.
      expect(first.settled()).toBe(0);
      const second = tracked([6, 7].map((i) => store.appendActivity(record(i))));
      const [a, b] = await Promise.all([first.all, second.all]);
      expect([...a, ...b].map((r) => r.id)).toEqual([4, 5, 6, 7]);
      expect((await store.queryActivity({ limit: 100 })).map((r) => r.request_id).sort()).toEqual(['r-1', 'r-2', 'r-3', 'r-4', 'r-5', 'r-6', 'r-7']);
    }));

  it('answers a caller that writes one record at a time in the same turn, as before', () =>
    withStore(async (store) => {
      for (let i = 1; i <= 3; i++) {
        const one = tracked([store.appendActivity(record(i))]);
        await nextTurn();
        expect(one.settled()).toBe(1);
      }
    }));

  it('commits once the window has passed even while records keep arriving every turn', () =>
    withStore(async (store, clock) => {
      await Promise.all([1, 2, 3].map((i) => store.appendActivity(record(i))));
      const waves: ReturnType<typeof tracked>[] = [];
      for (let turn = 0; turn < 8; turn++) {
        waves.push(tracked([store.appendActivity(record(10 + turn))]));
        clock.advance(GATHER_WINDOW_MS / 3);
        await nextTurn();
      }
      // The first record waited at most the window: it was committed within four turns.
      expect(waves[0]!.settled()).toBe(1);
      await Promise.all(waves.map((w) => w.all));
    }));

  it('writes a gathered wave that close() finds pending', async () => {
    const clock = manualClock();
    const dir = scratch().file('data');
    const store = open(dir, clock.now);
    await Promise.all([1, 2, 3].map((i) => store.appendActivity(record(i))));
    const pending = Promise.all([4, 5].map((i) => store.appendActivity(record(i))));
    await nextTurn();
    store.close();
    expect((await pending).map((r) => r.id)).toEqual([4, 5]);
    const reopened = open(dir, clock.now);
    try {
      expect(await reopened.queryActivity({ limit: 100 })).toHaveLength(5);
    } finally {
      reopened.close();
    }
  });
});
