import type { Database, Statement } from 'better-sqlite3';

/**
 * Records per segment while no retention count is known (the runtime's first pass sets one at start).
 * It is also the segment size of the default count limit (10,000): the log is trimmed every 1,000
 * records, as before segments.
 */
export const DEFAULT_SEGMENT_RECORDS = 1000;
/** A count limit is trimmed in steps of this fraction of it: the log holds less than two steps more. */
const SEGMENTS_PER_LIMIT = 10;
/** The smallest step: every new segment is a schema change, so a tiny limit does not make one per commit. */
const MIN_SEGMENT_RECORDS = 100;
/** Rows one INSERT statement carries; a larger batch takes several statements in the same transaction. */
const MAX_ROWS_PER_STATEMENT = 32;
const COLUMNS = 'id, type, timestamp, ts_ms, status, surface, request_id, metadata';
const PARAMETERS_PER_ROW = 8;

/** The records one segment holds before the next starts, for a retention count (undefined: none yet). */
export function segmentRecords(countLimit: number | undefined): number {
  return countLimit === undefined ? DEFAULT_SEGMENT_RECORDS : Math.max(MIN_SEGMENT_RECORDS, Math.ceil(countLimit / SEGMENTS_PER_LIMIT));
}

export function segmentTable(segment: number): string {
  return `activity_segment_${segment}`;
}

/**
 * The tables and indexes of one segment (migration 4 wrote the first one with this same text). The
 * rowid is the record id. One index serves time order, time windows and the type filter (the type is
 * read from the index, not the row); the other finds a request id. A record dirties a leaf of the table
 * and of each index, so every index costs on every preflight: a third, by (type, ts_ms), measured ~12%
 * of an insert and a leaf per commit, for queries the first index answers from its own entries.
 */
export function segmentDdl(segment: number): string {
  const table = segmentTable(segment);
  return `
      CREATE TABLE ${table} (
        id         INTEGER PRIMARY KEY,
        type       TEXT NOT NULL,
        timestamp  TEXT NOT NULL,
        ts_ms      INTEGER NOT NULL,
        status     TEXT NOT NULL,
        surface    TEXT,
        request_id TEXT NOT NULL,
        metadata   TEXT NOT NULL
      );
      CREATE INDEX ${table}_ts ON ${table} (ts_ms, id, type);
      CREATE INDEX ${table}_request_id ON ${table} (request_id);`;
}

/** One record to write: the columns, with its time in ms and its metadata's JSON text. */
export interface SegmentRecord {
  readonly type: string;
  readonly timestamp: string;
  readonly tsMs: number;
  readonly status: string;
  readonly surface: string | undefined;
  readonly requestId: string;
  readonly json: string;
}

export interface ActivityRow {
  readonly id: number;
  readonly type: string;
  readonly timestamp: string;
  readonly ts_ms: number;
  readonly status: string;
  readonly surface: string | null;
  readonly request_id: string;
  readonly metadata: string;
}

/** A filter over the log: a WHERE clause over its columns (no ORDER BY) with its named parameters. */
export interface ActivityFilter {
  readonly where: string;
  readonly params: Readonly<Record<string, string | number>>;
}

interface Segment {
  readonly segment: number;
  count: number;
}

/**
 * The activity log as a run of segment tables, oldest first, each holding the records of one stretch
 * of ids. Records are only ever added to the newest; trimming the log to its count drops whole old
 * segments, which frees their pages without visiting a row (deleting row by row maintained every index
 * per row: a third of the cost of each record at steady state). Ids are given here, one after another,
 * so a batch is one multi-row INSERT and each record knows its id without asking.
 */
export class ActivitySegments {
  private readonly segments: Segment[];
  private nextId: number;
  /** Multi-row INSERT statements into the newest segment, by row count; emptied when a segment starts. */
  private readonly inserts = new Map<number, Statement>();
  private readonly insertRows: (args: readonly unknown[], rows: number) => void;

  constructor(private readonly db: Database) {
    const rows = db.prepare('SELECT segment, id_floor FROM activity_segments ORDER BY segment').all() as { segment: number; id_floor: number }[];
    const newest = rows.at(-1);
    if (newest === undefined) throw new Error('the activity log has no segment (activity_segments is empty)');
    this.segments = rows.map(({ segment }) => ({ segment, count: (db.prepare(`SELECT COUNT(*) AS n FROM ${segmentTable(segment)}`).get() as { n: number }).n }));
    const last = (db.prepare(`SELECT MAX(id) AS id FROM ${segmentTable(newest.segment)}`).get() as { id: number | null }).id;
    this.nextId = Math.max(newest.id_floor, (last ?? 0) + 1);
    this.insertRows = db.transaction((args: readonly unknown[], rows: number) => {
      for (let done = 0; done < rows; done += MAX_ROWS_PER_STATEMENT) {
        const count = Math.min(MAX_ROWS_PER_STATEMENT, rows - done);
        // Spread, not an array: better-sqlite3 reads an array element by element through the V8 API
        // (callgrind: ~40% more instructions to bind a batch of ten).
        this.insertOf(count).run(...(count === rows ? args : args.slice(done * PARAMETERS_PER_ROW, (done + count) * PARAMETERS_PER_ROW)));
      }
    });
  }

  /** Records kept, all segments together. */
  get size(): number {
    return this.segments.reduce((sum, s) => sum + s.count, 0);
  }

  /** The segment numbers, oldest first. */
  get numbers(): readonly number[] {
    return this.segments.map((s) => s.segment);
  }

  private get newest(): Segment {
    return this.segments.at(-1)!;
  }

  /**
   * Writes the records, in order, in one transaction; returns the first one's id (the others follow it
   * one by one). Throws (writing none) when it fails.
   */
  append(records: readonly SegmentRecord[]): number {
    const first = this.nextId;
    const args: unknown[] = [];
    records.forEach((r, i) => args.push(first + i, r.type, r.timestamp, r.tsMs, r.status, r.surface ?? null, r.requestId, r.json));
    // One statement is a transaction of its own (all its rows or none): no BEGIN and COMMIT to run
    // around it, which were two more statements per group commit.
    if (records.length <= MAX_ROWS_PER_STATEMENT) this.insertOf(records.length).run(...args);
    else this.insertRows(args, records.length);
    this.nextId += records.length;
    this.newest.count += records.length;
    return first;
  }

  /** Whether the newest segment holds its share for this retention count. */
  full(countLimit: number | undefined): boolean {
    return this.newest.count >= segmentRecords(countLimit);
  }

  /**
   * Starts the next segment and drops the oldest ones that the newest `countLimit` records do not
   * reach, in one transaction (a few pages: the schema, the new roots, the free list). Returns the
   * records dropped.
   */
  startSegment(countLimit: number | undefined): number {
    const next = this.newest.segment + 1;
    let kept = this.size;
    const dropped: Segment[] = [];
    for (const old of this.segments) {
      if (countLimit === undefined || kept - old.count < countLimit) break;
      kept -= old.count;
      dropped.push(old);
    }
    const numbers = [...this.segments.filter((s) => !dropped.includes(s)).map((s) => s.segment), next];
    this.db.transaction(() => {
      this.db.exec(segmentDdl(next));
      this.db.prepare('INSERT INTO activity_segments (segment, id_floor) VALUES (?, ?)').run(next, this.nextId);
      for (const { segment } of dropped) this.dropSegment(segment);
      this.replaceView(numbers);
    })();
    this.segments.splice(0, dropped.length);
    this.segments.push({ segment: next, count: 0 });
    this.inserts.clear();
    return dropped.reduce((sum, s) => sum + s.count, 0);
  }

  /**
   * Records matching `filter`, newest first (by ts_ms, then id), `limit` of them after `offset`. Each
   * segment reads its own index in order and SQLite merges them (a compound SELECT's ORDER BY), so a
   * page costs what it holds, not the size of the log.
   */
  query(filter: ActivityFilter, limit: number, offset: number): ActivityRow[] {
    const arms = this.segments.map(({ segment }) => `SELECT ${COLUMNS} FROM ${segmentTable(segment)}${filter.where === '' ? '' : ` WHERE ${filter.where}`}`);
    const sql = `${arms.join(' UNION ALL ')} ORDER BY ts_ms DESC, id DESC LIMIT @limit OFFSET @offset`;
    return this.db.prepare(sql).all({ ...filter.params, limit, offset }) as ActivityRow[];
  }

  /**
   * Deletes at most `rows` records older than `cutoffMs`, the oldest segments first, in one
   * transaction; returns how many. A segment left empty stays (its pages are few) until trimming drops it.
   */
  deleteOlderThan(cutoffMs: number, rows: number): number {
    return this.deleteEach(rows, (table, budget) =>
      this.db.prepare(`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ts_ms < ? ORDER BY ts_ms LIMIT ?)`).run(cutoffMs, budget).changes,
    );
  }

  /**
   * Deletes at most `rows` of the records beyond the newest `keep` (by ts_ms, then id, as queries order
   * them), in one transaction; returns how many.
   */
  deleteBeyond(keep: number, rows: number): number {
    const boundary = this.query({ where: '', params: {} }, 1, keep)[0];
    if (boundary === undefined) return 0;
    return this.deleteEach(rows, (table, budget) =>
      this.db
        .prepare(`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE (ts_ms, id) <= (?, ?) ORDER BY ts_ms, id LIMIT ?)`)
        .run(boundary.ts_ms, boundary.id, budget).changes,
    );
  }

  private deleteEach(rows: number, remove: (table: string, budget: number) => number): number {
    const changes = this.db.transaction(() => {
      let removed = 0;
      const counts = this.segments.map(({ segment }) => {
        const n = removed < rows ? remove(segmentTable(segment), rows - removed) : 0;
        removed += n;
        return n;
      });
      // The newest segment's rows are what the next id is read from at start: once any of them go, its
      // floor keeps the next id instead (else a log pruned empty would give its ids again).
      if (counts.at(-1)! > 0) this.db.prepare('UPDATE activity_segments SET id_floor = MAX(id_floor, ?) WHERE segment = ?').run(this.nextId, this.newest.segment);
      return counts;
    })();
    // Counted once committed: a transaction that throws deleted nothing.
    changes.forEach((n, i) => (this.segments[i]!.count -= n));
    return changes.reduce((sum, n) => sum + n, 0);
  }

  private dropSegment(segment: number): void {
    this.db.exec(`DROP TABLE ${segmentTable(segment)}`);
    this.db.prepare('DELETE FROM activity_segments WHERE segment = ?').run(segment);
  }

  /** The view `activity_log` over every segment, for people and tools reading the file. */
  private replaceView(numbers: readonly number[]): void {
    this.db.exec(`DROP VIEW IF EXISTS activity_log; CREATE VIEW activity_log AS ${numbers.map((n) => `SELECT ${COLUMNS} FROM ${segmentTable(n)}`).join(' UNION ALL ')}`);
  }

  private insertOf(rows: number): Statement {
    let statement = this.inserts.get(rows);
    if (statement === undefined) {
      const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
      statement = this.db.prepare(`INSERT INTO ${segmentTable(this.newest.segment)} (${COLUMNS}) VALUES ${values}`);
      this.inserts.set(rows, statement);
    }
    return statement;
  }
}
