// What a registry command may write, captured before it writes, so a failed command puts the
// tree back exactly: files it changed get their bytes back, files it created go away.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export interface TreeSnapshot {
  restore(): void;
}

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

/** Captures every file under the given paths (relative to root; files or folders). */
export function snapshotTree(root: string, paths: readonly string[]): TreeSnapshot {
  const saved = new Map<string, Buffer>();
  for (const path of paths) for (const file of filesUnder(join(root, path))) saved.set(relative(root, file), readFileSync(file));
  return {
    restore: () => {
      for (const path of paths) {
        for (const file of filesUnder(join(root, path))) if (!saved.has(relative(root, file))) rmSync(file);
      }
      for (const [file, bytes] of saved) {
        const full = join(root, file);
        if (existsSync(full) && readFileSync(full).equals(bytes)) continue;
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, bytes);
      }
    },
  };
}
