/**
 * An upper bound on the write-ahead log's size that needs no system call, for the WAL bound's checks
 * before each activity commit (WalLimit). The log grows only by frames appended at its end, and an
 * activity commit appends at most the frames WalLimit.framesOf counts for its records (the premise of
 * the bound itself); a fold only shrinks it. So the size last measured plus those frames bounds the
 * log, for as long as this connection has written nothing else: another write's frames are not
 * counted, and the next check measures again.
 *
 * Why: a stat() of the log before every commit was 1.8 µs on a warm machine and, in the rider
 * benchmark (one commit per request, caches cooled by a 600 KB listing between them), ~25 µs under the
 * profiler; the WAL index's read that replaced it is a system call as well. Far below the fold point,
 * where the log spends nearly all its time, no measurement is needed.
 */
export class WalSizeEstimate {
  private measuredBytes = 0;
  private framesSince = 0;
  /** The connection's total_changes() that the counted commits account for; undefined: measure again. */
  private expectedChanges: number | undefined;

  /**
   * @param measure the log's size now, or more (WalLogSize: a read of the WAL index)
   * @param totalChanges SQLite's total_changes() on the connection that writes the activity log: rows
   *   written by any statement, so a write this estimate did not count shows up here
   * @param frameBytes the bytes one frame takes in the log (page size plus its header)
   * @param headerBytes the log's own header, written when a log starts over empty
   */
  constructor(
    private readonly measure: () => number,
    private readonly totalChanges: () => number,
    private readonly frameBytes: number,
    private readonly headerBytes: number,
  ) {}

  /**
   * The log's size, or an upper bound on it when that bound is below `threshold` (then without a
   * system call). Whatever it returns is at least the true size, and is the true size whenever it is
   * not below `threshold`: a decision "at or past the threshold" is always taken on a measurement.
   */
  bytesBelow(threshold: number): number {
    if (this.expectedChanges !== undefined && this.totalChanges() === this.expectedChanges) {
      const bound = this.measuredBytes + this.headerBytes + this.framesSince * this.frameBytes;
      if (bound < threshold) return bound;
    }
    this.measuredBytes = this.measure();
    this.framesSince = 0;
    this.expectedChanges = this.totalChanges();
    return this.measuredBytes;
  }

  /** An activity commit of `rows` records, which appended at most `frames` frames, succeeded. */
  committed(rows: number, frames: number): void {
    if (this.expectedChanges === undefined) return;
    this.expectedChanges += rows;
    this.framesSince += frames;
  }

  /**
   * Something wrote what total_changes() does not show (schema changes: a new or dropped activity
   * segment), or a commit failed part-way: the next check measures.
   */
  invalidate(): void {
    this.expectedChanges = undefined;
  }
}
