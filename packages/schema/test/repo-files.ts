// Where the tests find spec/examples and the package's fixtures, and how they read them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const EXAMPLES = join(PACKAGE_ROOT, '..', '..', 'spec', 'examples');
export const FIXTURES = join(PACKAGE_ROOT, 'fixtures');

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Every file under dir, as paths relative to dir with forward slashes. */
export function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full).map((f) => `${name}/${f}`) : [name];
  });
}

export function relativeTo(dir: string, file: string): string {
  return relative(dir, file).split('\\').join('/');
}
