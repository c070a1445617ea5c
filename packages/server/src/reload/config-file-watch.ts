import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Settle time after the last event: an editor's save is several events (write, rename, chmod). */
const SETTLE_MS = 200;

/**
 * Calls `onChange` once a burst of changes to `file` has settled. The directory is watched, not the
 * file: editors save by writing a new file and renaming it over the old one, which a watch on the old
 * file's inode would not see. Returns the function that stops watching.
 */
export function watchConfigFile(file: string, onChange: () => void, onError: (error: Error) => void): () => void {
  const name = basename(file);
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher;
  try {
    watcher = watch(dirname(file), { persistent: false }, (_event, changed) => {
      if (changed !== null && changed.toString() !== name) return;
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        onChange();
      }, SETTLE_MS);
    });
  } catch (error) {
    onError(error instanceof Error ? error : new Error(String(error)));
    return () => undefined;
  }
  watcher.on('error', onError);
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    watcher.close();
  };
}
