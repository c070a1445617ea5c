// What in an installed node_modules tree is native: a compiled addon (a `.node` file) or the
// better-sqlite3 package (which builds one at install). A package that promises to install
// without a native dependency is held to it by finding none of these.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Paths (relative to `modules`) of every `.node` file and every better-sqlite3 directory under it; links are not followed. */
export function nativeModulesIn(modules: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === 'better-sqlite3') found.push(relative(modules, full));
        walk(full);
      } else if (entry.name.endsWith('.node')) {
        found.push(relative(modules, full));
      }
    }
  };
  walk(modules);
  return found.sort();
}
