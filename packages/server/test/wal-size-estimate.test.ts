// The WAL size estimate on a real SQLite file: whatever it answers is at least the log's true size,
// it is the true size whenever it is at or past the threshold asked about, and it asks the file system
// only when a bound could reach the threshold or the connection wrote something it did not count.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { WalSizeEstimate } from '../src/store/wal-size-estimate.js';

const PAGE = 4096;
const FRAME = PAGE + 24;

interface Fixture {
  readonly db: Database.Database;
  readonly estimate: WalSizeEstimate;
  readonly walBytes: () => number;
  readonly measured: { count: number };
  /** Commits `rows` rows of `bytes` each, as an activity commit does, and tells the estimate. */
  commit(rows: number, bytes: number): void;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function fixture(): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-wal-estimate-'));
  dirs.push(dir);
  const path = join(dir, 'test.db');
  const db = new Database(path);
  db.pragma(`page_size = ${PAGE}`);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('journal_size_limit = 0');
  db.exec('CREATE TABLE log (id INTEGER PRIMARY KEY, body TEXT NOT NULL); CREATE INDEX log_body ON log (substr(body, 1, 8)); CREATE TABLE other (x INTEGER)');
  db.prepare('INSERT INTO other VALUES (0)').run();
  const walBytes = () => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  const measured = { count: 0 };
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  const estimate = new WalSizeEstimate(
    () => {
      measured.count++;
      return walBytes();
    },
    () => totalChanges.get() as number,
    FRAME,
    32,
  );
  const insert = db.prepare('INSERT INTO log (body) VALUES (?)');
  const commitRows = db.transaction((rows: number, bytes: number) => {
    for (let i = 0; i < rows; i++) insert.run(`${i}`.padEnd(bytes, 'x'));
  });
  return {
    db,
    estimate,
    walBytes,
    measured,
    commit(rows, bytes) {
      commitRows(rows, bytes);
      // The store's own count (WalLimit.framesOf): a leaf of the table and of its index, each doubled
      // for a split, with page 1 and the parents; overflow pages twice.
      estimate.committed(rows, rows * (8 + 2 * Math.ceil(bytes / PAGE)));
    },
  };
}

type Step =
  | { readonly kind: 'commit'; readonly rows: number; readonly bytes: number }
  | { readonly kind: 'foreign-write' }
  | { readonly kind: 'schema-change' }
  | { readonly kind: 'fold' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('commit' as const), rows: fc.integer({ min: 1, max: 12 }), bytes: fc.integer({ min: 10, max: 9_000 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'foreign-write' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'schema-change' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fold' as const }) },
);

describe('WalSizeEstimate', () => {
  it('never answers below the true size, and answers the true size at or past the threshold', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 2_000_000 }), (steps, threshold) => {
        const f = fixture();
        try {
          f.estimate.bytesBelow(threshold);
          for (const s of steps) {
            if (s.kind === 'commit') f.commit(s.rows, s.bytes);
            else if (s.kind === 'foreign-write') f.db.prepare('UPDATE other SET x = x + 1').run();
            else if (s.kind === 'schema-change') {
              f.db.exec(`CREATE TABLE IF NOT EXISTS extra_${steps.indexOf(s)} (y TEXT)`);
              f.estimate.invalidate();
            } else f.db.pragma('wal_checkpoint(TRUNCATE)');
            const answer = f.estimate.bytesBelow(threshold);
            const truth = f.walBytes();
            expect(answer).toBeGreaterThanOrEqual(truth);
            if (answer >= threshold) expect(answer).toBe(truth);
          }
        } finally {
          f.db.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('measures only when a bound could reach the threshold or the connection wrote something uncounted', () => {
    const f = fixture();
    try {
      const far = 1024 ** 3;
      f.estimate.bytesBelow(far);
      expect(f.measured.count).toBe(1);
      for (let i = 0; i < 100; i++) {
        f.commit(5, 600);
        f.estimate.bytesBelow(far);
      }
      expect(f.measured.count).toBe(1);

      f.db.prepare('UPDATE other SET x = x + 1').run();
      const afterForeign = f.estimate.bytesBelow(far);
      expect(f.measured.count).toBe(2);
      expect(afterForeign).toBe(f.walBytes());

      f.estimate.invalidate();
      f.estimate.bytesBelow(far);
      expect(f.measured.count).toBe(3);

      // Near the threshold every check measures.
      const near = f.walBytes() + 1;
      f.commit(1, 10);
      expect(f.estimate.bytesBelow(near)).toBe(f.walBytes());
      expect(f.measured.count).toBe(4);
    } finally {
      f.db.close();
    }
  });
});
