import { execFileSync } from 'node:child_process';

/** The files git tracks in the working tree at `root` (paths relative to it), as a fresh clone has them. */
export function trackedFiles(root: string): string[] {
  const listing = execFileSync('git', ['ls-files', '-z', '--cached'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return listing.split('\0').filter((path) => path !== '');
}
