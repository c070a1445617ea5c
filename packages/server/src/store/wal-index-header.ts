import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/**
 * The bytes read from the start of the WAL index: both copies of its header (48 bytes each), then the
 * checkpoint information, whose first field is nBackfill (https://www.sqlite.org/walformat.html).
 */
const READ_BYTES = 100;
/** mxFrame in the first copy of the header: the last valid frame of the log, 0 when it is empty. */
const MX_FRAME_AT = 16;
/** aSalt: the log's two salts; SQLite adds one to the first and draws the second whenever it starts the log over. */
const SALT_AT = 32;
/** nBackfill: the frames already copied into the database (by any checkpoint). */
const N_BACKFILL_AT = 96;

/** What the WAL index says of the log. */
export interface WalIndexState {
  /** The frames the log holds (mxFrame). */
  readonly frames: number;
  /** How many of them are already in the database (nBackfill). */
  readonly backfilled: number;
  /** The log's salts: a log started over has others, whatever its frame count. */
  readonly salts: readonly [number, number];
}

/**
 * Reads the log's length from SQLite's WAL index (`<database>-shm`), the shared memory every
 * connection to the database keeps it in. The log file's size says how far the log ever reached, not
 * how long it is now: once SQLite starts the log over it writes from the file's start again, and the
 * file keeps its size unless something truncates it.
 *
 * The header is written in the machine's byte order. Read from the thread that makes every commit,
 * between commits, the frame count is the one its last commit left; nBackfill is an aligned 32-bit
 * word a checkpoint on another thread may raise meanwhile, which only makes the log look longer.
 *
 * The file stays open until {@link close}: closing any descriptor of a file drops every POSIX lock the
 * process holds on it, SQLite's locks on this same file among them, so it is closed only once the
 * store's connections are.
 */
export class WalIndexHeader {
  #fd: number | undefined;
  readonly #bytes = Buffer.alloc(READ_BYTES);
  readonly #littleEndian = endianness() === 'LE';

  constructor(private readonly path: string) {}

  /** The log's state, or undefined when the index cannot be read (not there yet, or not at all). */
  read(): WalIndexState | undefined {
    try {
      this.#fd ??= openSync(this.path, 'r');
      if (readSync(this.#fd, this.#bytes, 0, READ_BYTES, 0) < READ_BYTES) return undefined;
    } catch {
      return undefined;
    }
    const bytes = this.#bytes;
    const word = (at: number) => (this.#littleEndian ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
    return { frames: word(MX_FRAME_AT), backfilled: word(N_BACKFILL_AT), salts: [word(SALT_AT), word(SALT_AT + 4)] };
  }

  /** Call only after every connection of the store is closed (see above). */
  close(): void {
    if (this.#fd === undefined) return;
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}
