import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';

/**
 * Opens one connection to the store's file with the settings every connection shares. WAL lets the
 * activity writer thread, the checkpoint thread and the event loop's connection work side by side;
 * NORMAL sync means a commit reaches the OS (it survives the process, not a power cut) and only a
 * checkpoint fsyncs. No connection checkpoints on its own: a checkpoint fsyncs the WAL and the
 * database (milliseconds to tens of milliseconds on a busy disk) and would stall whichever thread
 * committed last, so the checkpoint thread does all of them.
 */
export function connectSqlite(path: string): Database {
  const db = new BetterSqlite3(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('wal_autocheckpoint = 0');
    return db;
  } catch (cause) {
    db.close();
    throw cause;
  }
}
