// The log's length read from the WAL index, on real SQLite files opened as the store opens them: it
// is the log SQLite reports, never less, through commits, copies, folds and a reader that holds the log;
// a fold's RESTART leaves the file in place for the next frames; and without an index the file's size
// stands in and folds truncate.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { connectSqlite } from '../src/store/sqlite-connection.js';
import { WAL_HEADER_BYTES } from '../src/store/wal-limit.js';
import { WalLogSize } from '../src/store/wal-log-size.js';

const cleanUps: (() => void)[] = [];
afterEach(() => {
  for (const cleanUp of cleanUps.splice(0).reverse()) cleanUp();
});

interface Checkpoint {
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}

interface Fixture {
  readonly path: string;
  /** The connection that commits, as the store's event loop does. */
  readonly writer: Database;
  /** Another connection, as the checkpoint thread's. */
  readonly other: Database;
  readonly size: WalLogSize;
  readonly frameBytes: number;
  commit(rows: number): void;
  checkpoint(mode: 'PASSIVE' | 'RESTART' | 'TRUNCATE'): Checkpoint;
  fileBytes(): number;
}

function fixture(): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-wal-log-'));
  const path = join(dir, 'test.db');
  const writer = connectSqlite(path, 0);
  const other = connectSqlite(path, 0);
  const frameBytes = (writer.pragma('page_size', { simple: true }) as number) + 24;
  const size = new WalLogSize(path, frameBytes);
  cleanUps.push(() => {
    other.close();
    writer.close();
    size.close();
    rmSync(dir, { recursive: true, force: true });
  });
  writer.exec('CREATE TABLE log (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = writer.prepare('INSERT INTO log (body) VALUES (?)');
  let n = 0;
  return {
    path,
    writer,
    other,
    size,
    frameBytes,
    commit: writer.transaction((rows: number) => {
      for (let i = 0; i < rows; i++) insert.run(`record ${n++} `.padEnd(1500, 'x'));
    }),
    checkpoint: (mode) => (other.pragma(`wal_checkpoint(${mode})`) as Checkpoint[])[0]!,
    fileBytes: () => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0,
  };
}

/** The bytes of a log of `frames` frames. */
const logBytes = (f: Fixture, frames: number) => WAL_HEADER_BYTES + frames * f.frameBytes;

describe('WalLogSize', () => {
  it('reads the log SQLite reports, which is the file while the log has only grown', () => {
    const f = fixture();
    for (const rows of [1, 5, 40]) {
      f.commit(rows);
      // PASSIVE copies frames but leaves the log as it is; its `log` is the log's frame count.
      const { log } = f.checkpoint('PASSIVE');
      expect(log).toBeGreaterThan(0);
      expect(f.size.bytes()).toBe(logBytes(f, log));
      expect(f.size.bytes()).toBe(f.fileBytes());
    }
    expect(f.size.foldMode()).toBe('RESTART');
  });

  it('counts a log whose every frame a copy put in the database in full: a reader may still hold it', () => {
    const f = fixture();
    f.commit(20);
    // A reader that started before the copy keeps its snapshot of the log.
    const reader = connectSqlite(f.path, 0);
    cleanUps.push(() => reader.close());
    const read = reader.prepare('SELECT COUNT(*) AS n FROM log');
    reader.exec('BEGIN');
    expect(read.get()).toEqual({ n: 20 });
    const copied = f.checkpoint('PASSIVE');
    expect(copied.checkpointed).toBe(copied.log);
    expect(f.size.bytes()).toBe(logBytes(f, copied.log));
    // Indeed the next commit cannot start the log over while the reader holds it: the log grows.
    f.commit(1);
    const after = f.checkpoint('PASSIVE').log;
    expect(after).toBeGreaterThan(copied.log);
    expect(f.size.bytes()).toBe(logBytes(f, after));
    reader.exec('COMMIT');
  });

  it('counts the log as empty after a complete RESTART, and the next commit writes over the file from its start', () => {
    const f = fixture();
    f.commit(60);
    const before = f.fileBytes();
    const restart = f.checkpoint('RESTART');
    expect(restart.busy).toBe(0);
    f.size.folded('RESTART', true);
    expect(f.size.bytes()).toBe(0);
    f.commit(2);
    const { log } = f.checkpoint('PASSIVE');
    expect(log).toBeLessThan(restart.log);
    expect(f.size.bytes()).toBe(logBytes(f, log));
    // The store's connections leave the file as long as it was (journal_size_limit -1): no truncation to grow back from.
    expect(f.fileBytes()).toBe(before);
  });

  it('still counts the log in full after an incomplete fold, or after a fold that was not a RESTART', () => {
    const f = fixture();
    f.commit(10);
    const { log } = f.checkpoint('RESTART');
    f.size.folded('RESTART', false);
    expect(f.size.bytes()).toBe(logBytes(f, log));
    f.size.folded('TRUNCATE', true);
    expect(f.size.bytes()).toBe(logBytes(f, log));
  });

  it('reads an emptied log after a TRUNCATE', () => {
    const f = fixture();
    f.commit(10);
    expect(f.checkpoint('TRUNCATE').busy).toBe(0);
    expect(f.fileBytes()).toBe(0);
    expect(f.size.bytes()).toBe(0);
  });

  it("stands in the file's size where there is no WAL index, and then folds truncate", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-wal-log-'));
    const path = join(dir, 'no-index.db');
    const size = new WalLogSize(path, 4120);
    cleanUps.push(() => {
      size.close();
      rmSync(dir, { recursive: true, force: true });
    });
    expect(size.bytes()).toBe(0);
    writeFileSync(`${path}-wal`, Buffer.alloc(12_345));
    expect(size.bytes()).toBe(12_345);
    expect(size.foldMode()).toBe('TRUNCATE');
    size.folded('TRUNCATE', true);
    expect(size.bytes()).toBe(12_345);
  });
});
