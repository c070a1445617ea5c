/** The default of `store_wal_limit_bytes`. */
export const DEFAULT_WAL_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * How a fold checkpoints the log. RESTART copies every frame into the database and waits out their
 * readers, so that the next commit writes the log over from the file's start: the file keeps its
 * size (at most the bound) for the next frames. TRUNCATE does the same and also cuts the file to
 * nothing, which is what made a fold long: at full speed a TRUNCATE fold of a 48 MiB log stalled
 * the commits ~29 ms, a RESTART fold ~12 ms, and the frames after a truncation grow the file again.
 */
export type FoldMode = 'RESTART' | 'TRUNCATE';

/** The store's request to the checkpoint thread for a fold, and how to checkpoint. */
export interface FoldRequest {
  readonly fold: FoldMode;
}
/** The thread's answer once the fold's checkpoint returned: whether it was complete (WalLogSize.folded). */
export interface FoldReply {
  readonly folded: boolean;
}
export function isFoldRequest(message: unknown): message is FoldRequest {
  return typeof message === 'object' && message !== null && Object.hasOwn(message, 'fold');
}
export function isFoldReply(message: unknown): message is FoldReply {
  return typeof message === 'object' && message !== null && Object.hasOwn(message, 'folded');
}

/**
 * The store's request to copy what the log holds now (PASSIVE, beside the commits): a fold then has
 * only the frames since to copy, which measured a stall of 20-60 ms instead of 75-135 ms at 48 MiB.
 */
export const COPY_MESSAGE = 'copy';
/** Copies before each fold, at even steps of the log's way to the fold point. */
const COPIES_PER_FOLD = 3;
/** The WAL header; every frame adds 24 bytes to its page. */
export const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
/**
 * Pages one activity record can dirty besides its overflow pages: a leaf of the table and of each of
 * its three indexes, each doubled for a split (which also writes the parent). Real batches share
 * leaves, so this overestimates; it is what keeps one commit inside the headroom.
 */
const PAGES_PER_RECORD = 8;
const PAGES_PER_DELETED_ROW = 4;

/**
 * The share of the limit one commit may write. A fold stalls activity commits for its checkpoint's
 * two fsyncs, so it should come as rarely as the limit allows: folding at half the limit measured
 * ~19% fewer preflights per second than no limit at full speed, at three quarters fewer folds.
 */
const COMMIT_SHARE = 4;

/**
 * The bound on the store's write-ahead log. Activity records are committed only while the log is
 * below `foldAtBytes` (three quarters of the limit), and one commit writes at most `commitFrames`
 * frames (the last quarter), so the log never passes the limit; at `foldAtBytes` the store folds the
 * log back into the database (a RESTART checkpoint: the next commit writes the log over from the
 * file's start) before it commits more. SQLite cannot start over a log that readers and a writer keep
 * busy, so without this a steady stream of commits grows it for ever. The log's length is read from
 * the WAL index (wal-log-size.ts): the file is as long as the log ever was since it was last emptied.
 */
export class WalLimit {
  readonly foldAtBytes: number;
  /** The frames one activity commit may write: the headroom between foldAtBytes and the limit. */
  readonly commitFrames: number;

  constructor(
    readonly limitBytes: number,
    private readonly pageSize: number,
  ) {
    this.foldAtBytes = limitBytes - Math.floor(limitBytes / COMMIT_SHARE);
    this.commitFrames = Math.max(1, Math.floor((limitBytes - this.foldAtBytes - WAL_HEADER_BYTES) / (pageSize + FRAME_HEADER_BYTES)));
  }

  /** The bytes one frame takes in the log. */
  get frameBytes(): number {
    return this.pageSize + FRAME_HEADER_BYTES;
  }

  /** The frames below foldAtBytes: SQLite's own automatic checkpoint for writes that are not activity records. */
  get foldAtFrames(): number {
    return Math.max(1, Math.floor(this.foldAtBytes / (this.pageSize + FRAME_HEADER_BYTES)));
  }

  /** The frames one activity record may write, its metadata's overflow pages (twice, as margin) included. */
  framesOf(metadataChars: number): number {
    // A UTF-16 length can be up to three bytes of UTF-8 each.
    return PAGES_PER_RECORD + 2 * Math.ceil((metadataChars * 3) / this.pageSize);
  }

  /**
   * Activity rows one trim may delete in one commit: a deletion dirties at most a leaf of the table
   * and of each index, and never splits one (their overflow pages go to the free list, whose pages
   * hold hundreds of entries each).
   */
  get rowsPerCommit(): number {
    return Math.max(1, Math.floor(this.commitFrames / PAGES_PER_DELETED_ROW));
  }

  /** The log size at which the `done`-th copy since the last fold is due (Infinity once all are). */
  copyAtBytes(done: number): number {
    return done >= COPIES_PER_FOLD ? Infinity : Math.floor((this.foldAtBytes * (done + 1)) / (COPIES_PER_FOLD + 1));
  }
}
