import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE_NAME = 'gateway.lock';

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

export type LockResult =
  | { ok: true; lock: DataDirLock }
  | { ok: false; error: { code: 'data_dir_locked'; message: string; pid: number } | { code: 'lock_failed'; message: string } };

/**
 * Takes the data directory for this process: `<dataDir>/gateway.lock` holds the owner's pid.
 * A lock whose pid is no longer running (the gateway was killed) is taken over.
 *
 * The file is created complete and atomically (written under a private name, then hard-linked
 * to the lock name, which fails if the lock exists), so a reader never sees an empty lock.
 */
export function acquireDataDirLock(dataDir: string): LockResult {
  const path = join(dataDir, LOCK_FILE_NAME);
  const staging = join(dataDir, `${LOCK_FILE_NAME}.${process.pid}.${Date.now()}`);
  try {
    writeFileSync(staging, `${process.pid}\n`, { mode: 0o600 });
  } catch (cause) {
    return { ok: false, error: { code: 'lock_failed', message: `cannot write in data directory ${dataDir}: ${errorText(cause)}` } };
  }
  try {
    // Two rounds at most: the second one follows the removal of a stale lock.
    for (let round = 0; round < 2; round += 1) {
      try {
        linkSync(staging, path);
        return { ok: true, lock: ownedLock(path) };
      } catch (cause) {
        if (!isCode(cause, 'EEXIST')) {
          return { ok: false, error: { code: 'lock_failed', message: `cannot create ${path}: ${errorText(cause)}` } };
        }
      }
      const holder = readHolderPid(path);
      if (holder !== undefined && isProcessRunning(holder)) {
        return {
          ok: false,
          error: {
            code: 'data_dir_locked',
            pid: holder,
            message:
              `data directory ${dataDir} is in use by another gateway (pid ${holder}); ` +
              `stop that gateway or start this one with another data_dir`,
          },
        };
      }
      removeIfPresent(path);
    }
    return { ok: false, error: { code: 'lock_failed', message: `cannot take over the stale lock ${path}` } };
  } finally {
    removeIfPresent(staging);
  }
}

function ownedLock(path: string): DataDirLock {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Only remove the lock if it is still ours: never a successor's.
    if (readHolderPid(path) === process.pid) removeIfPresent(path);
  };
  process.on('exit', release);
  return { path, release };
}

/** The pid of the running process that holds `dataDir`'s lock; undefined when none does (no lock, or a stale one). */
export function dataDirLockHolder(dataDir: string): number | undefined {
  const holder = readHolderPid(join(dataDir, LOCK_FILE_NAME));
  return holder !== undefined && isProcessRunning(holder) ? holder : undefined;
}

function readHolderPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid runs (as any user). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    // EPERM: the process exists but belongs to someone else.
    return isCode(cause, 'EPERM');
  }
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function isCode(cause: unknown, code: string): boolean {
  return typeof cause === 'object' && cause !== null && (cause as { code?: unknown }).code === code;
}

function errorText(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
