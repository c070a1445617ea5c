// A throwaway copy of the parts of the repository codegen reads and writes, so guard tests can
// break spec/ without touching the real tree. node_modules are linked, not copied, so the
// generated package can still be imported and type-checked inside the copy.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultRoot } from '../src/repo-paths.js';

export const REAL_ROOT = defaultRoot();

export interface TempRepo {
  readonly root: string;
  read(path: string): string;
  write(path: string, text: string): void;
  readJson<T = Record<string, unknown>>(path: string): T;
  writeJson(path: string, value: unknown): void;
  remove(path: string): void;
  dispose(): void;
}

export function createTempRepo(): TempRepo {
  const root = mkdtempSync(join(tmpdir(), 'mcpproxy-codegen-'));
  cpSync(join(REAL_ROOT, 'spec'), join(root, 'spec'), { recursive: true });
  cpSync(join(REAL_ROOT, '.changeset'), join(root, '.changeset'), { recursive: true });
  const schemaPackage = join(REAL_ROOT, 'packages', 'schema');
  const copy = join(root, 'packages', 'schema');
  mkdirSync(copy, { recursive: true });
  cpSync(schemaPackage, copy, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|dist)([/\\]|$)/.test(source.slice(schemaPackage.length)),
  });
  symlinkSync(join(REAL_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  symlinkSync(join(schemaPackage, 'node_modules'), join(copy, 'node_modules'), 'dir');
  writeFileSync(join(root, 'tsconfig.base.json'), readFileSync(join(REAL_ROOT, 'tsconfig.base.json')));
  const abs = (path: string): string => join(root, path);
  return {
    root,
    read: (path) => readFileSync(abs(path), 'utf8'),
    write: (path, text) => {
      mkdirSync(dirname(abs(path)), { recursive: true });
      writeFileSync(abs(path), text);
    },
    readJson: <T>(path: string) => JSON.parse(readFileSync(abs(path), 'utf8')) as T,
    writeJson: (path, value) => writeFileSync(abs(path), `${JSON.stringify(value, null, 2)}\n`),
    remove: (path) => rmSync(abs(path), { recursive: true, force: true }),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
