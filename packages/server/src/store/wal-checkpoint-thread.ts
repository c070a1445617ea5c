// The checkpoint thread: copies committed WAL pages into the database every interval. A PASSIVE
// checkpoint takes no writer lock, so commits go on meanwhile; its fsyncs stall only this thread.
import { workerData } from 'node:worker_threads';
import { connectSqlite } from './sqlite-connection.js';
import type { StoreThreadData } from './store-thread.js';

export interface CheckpointThreadData extends StoreThreadData {
  readonly path: string;
  readonly intervalMs: number;
}

const { path, intervalMs, port, closed } = workerData as CheckpointThreadData;

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
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // busy or a transient I/O error: the next interval tries again
  }
}, intervalMs);
port.on('message', () => {
  clearInterval(timer);
  db.close();
  port.close();
  signalClosed();
});
