import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';

/** SQLite's automatic checkpoint on the event loop's connection until the checkpoint thread runs (64 MiB of WAL). */
export const AUTOCHECKPOINT_PAGES = 16_384;

/**
 * Opens one connection to the store's file with the settings every connection shares. WAL lets the
 * checkpoint thread and the event loop's connection work side by side; NORMAL sync means a commit
 * reaches the OS (it survives the process, not a power cut) and only a checkpoint fsyncs. A
 * checkpoint (two fsyncs: milliseconds to tens of milliseconds on a busy disk) stalls the thread
 * whose commit triggers it, so it is rare on the event loop (`autocheckpointPages`), and a
 * checkpoint thread's own connection passes 0 (it checkpoints on its timer instead).
 */
export function connectSqlite(path: string, autocheckpointPages: number = AUTOCHECKPOINT_PAGES): Database {
  ownerOnly(path);
  const db = new BetterSqlite3(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma(`wal_autocheckpoint = ${autocheckpointPages}`);
    // SQLite starts the log over without truncating the file: its next frames are written over the
    // old ones, where truncating and growing the file again cost the commits (WalLimit bounds the file
    // the same; the checkpoint thread empties it once the writes stop).
    db.pragma('journal_size_limit = -1');
    return db;
  } catch (cause) {
    db.close();
    throw cause;
  }
}

/**
 * The store holds upstream bearer credentials: its file is created readable by the owner only before
 * SQLite opens it, since SQLite gives the WAL and its index the database file's mode; files an older
 * version left readable by others are tightened.
 */
function ownerOnly(file: string): void {
  try {
    closeSync(openSync(file, 'a', 0o600));
    for (const path of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(path)) chmodSync(path, 0o600);
  } catch {
    // a filesystem without modes (still usable)
  }
}
