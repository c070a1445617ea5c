import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** `~` and `~/x` are the user's home directory; a relative path is taken from `base`. */
export function resolveUserPath(path: string, base: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return isAbsolute(path) ? path : resolve(base, path);
}
