import { statSync } from 'node:fs';
import { WalIndexHeader, type WalIndexState } from './wal-index-header.js';
import { WAL_HEADER_BYTES, type FoldMode } from './wal-limit.js';

/**
 * The write-ahead log's length in bytes, for the WAL bound (WalLimit). It reads the WAL index
 * (wal-index-header.ts), since a log that SQLite started over is shorter than its file. Where the
 * index cannot be read, the file's size stands in (never less than the log), and folds truncate, so
 * that after a fold the file's size is the log's again.
 */
export class WalLogSize {
  readonly #index: WalIndexHeader;
  readonly #walPath: string;
  /** The log a fold's RESTART left, every frame of it in the database and no reader on any: the next commit starts it over. */
  #restarting: WalIndexState | undefined;

  constructor(
    dbPath: string,
    private readonly frameBytes: number,
  ) {
    this.#index = new WalIndexHeader(`${dbPath}-shm`);
    this.#walPath = `${dbPath}-wal`;
  }

  /** The log's length now, or more: never less. */
  bytes(): number {
    const state = this.#index.read();
    if (state === undefined) return statSync(this.#walPath, { throwIfNoEntry: false })?.size ?? 0;
    if (state.frames === 0 || (this.#restarting !== undefined && sameLog(state, this.#restarting))) return 0;
    this.#restarting = undefined;
    return WAL_HEADER_BYTES + state.frames * this.frameBytes;
  }

  /** How the next fold should checkpoint (FoldMode). */
  foldMode(): FoldMode {
    return this.#index.read() === undefined ? 'TRUNCATE' : 'RESTART';
  }

  /**
   * A fold's checkpoint returned. `complete`: it copied every frame and no reader was left on any
   * (SQLite's busy flag 0). After a complete RESTART no reader can hold the log any more (a read that
   * starts now reads the database alone), so the next commit starts it over, and until then it counts
   * as empty. A PASSIVE checkpoint can also copy every frame, but a reader that started before it may
   * still hold them and keep the next commit from starting over: that log still counts in full.
   */
  folded(mode: FoldMode, complete: boolean): void {
    if (mode !== 'RESTART' || !complete) return;
    const state = this.#index.read();
    this.#restarting = state !== undefined && state.frames === state.backfilled ? state : undefined;
  }

  /** Call only after every connection of the store is closed (WalIndexHeader.close). */
  close(): void {
    this.#index.close();
  }
}

function sameLog(a: WalIndexState, b: WalIndexState): boolean {
  return a.frames === b.frames && a.backfilled === b.backfilled && a.salts[0] === b.salts[0] && a.salts[1] === b.salts[1];
}
