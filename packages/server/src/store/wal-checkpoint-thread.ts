// The checkpoint thread: copies committed WAL pages into the database every interval. A PASSIVE
// checkpoint takes no writer lock, so commits go on meanwhile; its fsyncs stall only this thread.
// Under a steady stream of commits a PASSIVE checkpoint never reaches the log's end, and SQLite
// only starts a log over once all of it is in the database, so two more jobs keep the log bounded:
// a fold the store asks for (it has stopped writing; RESTART copies the rest and lets the next commit
// write the log over from the file's start; copies it asked for on the way there left little of the
// rest), and emptying the file once a whole interval went by without a commit.
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { connectSqlite } from './sqlite-connection.js';
import type { StoreThreadData } from './store-thread.js';
import { COPY_MESSAGE, isFoldRequest, type FoldReply } from './wal-limit.js';

export interface CheckpointThreadData extends StoreThreadData {
  readonly path: string;
  readonly intervalMs: number;
}

const { path, intervalMs, port, closed } = workerData as CheckpointThreadData;

/**
 * This thread's nice value (Linux schedules threads apart, and setPriority of pid 0 is this thread
 * alone). A checkpoint every second that shares a core with the event loop at nice 0 halves the event
 * loop's share for its length (5-100 ms under load): the preflights answered meanwhile wait. At 10 the
 * event loop keeps ~90% of a shared core; while the event loop waits for a fold, this thread has the core.
 */
const CHECKPOINT_THREAD_NICE = 10;

try {
  setPriority(CHECKPOINT_THREAD_NICE);
} catch {
  // a system that refuses: checkpoints run at the process's priority, as before
}

function signalClosed(): void {
  Atomics.store(closed, 0, 1);
  Atomics.notify(closed, 0);
}

let db: ReturnType<typeof connectSqlite>;
try {
  db = connectSqlite(path, 0);
} catch (cause) {
  // The event loop sees the error and checkpoints on its own connection instead.
  signalClosed();
  throw cause;
}

interface CheckpointResult {
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}
function checkpoint(mode: 'PASSIVE' | 'RESTART' | 'TRUNCATE'): CheckpointResult | undefined {
  try {
    return (db.pragma(`wal_checkpoint(${mode})`) as CheckpointResult[])[0];
  } catch {
    // busy or a transient I/O error: the next interval (or the store's next fold) tries again
    return undefined;
  }
}

/** The log's frame count at the last tick, all of them in the database; -1 when it was not. */
let settledFrames = -1;
const timer = setInterval(() => {
  const result = checkpoint('PASSIVE');
  const settled = result !== undefined && result.busy === 0 && result.log > 0 && result.log === result.checkpointed;
  // The same log, all of it copied, for a whole interval: nothing is being written, give the space back.
  if (settled && result.log === settledFrames) {
    checkpoint('TRUNCATE');
    settledFrames = -1;
  } else {
    settledFrames = settled ? result.log : -1;
  }
}, intervalMs);
port.on('message', (message: unknown) => {
  if (message === COPY_MESSAGE) {
    checkpoint('PASSIVE');
    return;
  }
  if (isFoldRequest(message)) {
    const result = checkpoint(message.fold);
    settledFrames = -1;
    port.postMessage({ folded: result !== undefined && result.busy === 0 } satisfies FoldReply);
    return;
  }
  clearInterval(timer);
  db.close();
  port.close();
  signalClosed();
});
