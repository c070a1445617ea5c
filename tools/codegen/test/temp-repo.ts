// A throwaway copy of the parts of the repository codegen reads and writes, so guard tests can
// break spec/ without touching the real tree. node_modules are linked, not copied, so the
// generated package can still be imported and type-checked inside the copy.
//
// The copy is the tree as settings version 1 was released (the first commit whose schema
// CHANGELOG names it), not the working tree: the guards' tests speak of "the next version",
// "the reserved code" and "nothing pending", and the working tree moves on with every registry
// change. Its generated files are written anew by today's codegen once per test process, so a
// change of an emitter is not drift in the copy. A checkout without that commit (no git, a
// shallow clone) copies the working tree.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { releaseCommit } from '../src/released-baseline.js';
import { defaultRoot, repoPaths } from '../src/repo-paths.js';

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

let firstRelease: string | undefined;

/** The parts codegen reads and writes as the v1 release commit holds them, regenerated; undefined without that commit. */
function firstReleaseSnapshot(): string | undefined {
  if (firstRelease !== undefined) return firstRelease;
  const release = releaseCommit(repoPaths(REAL_ROOT), 1);
  if (release === undefined || release.atShallowCut) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-codegen-v1-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const archive = execFileSync('git', ['archive', '--format=tar', release.commit, 'spec', '.changeset', 'packages/schema'], { cwd: REAL_ROOT, maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  linkModules(dir);
  execFileSync(join(REAL_ROOT, 'node_modules', '.bin', 'tsx'), [join(REAL_ROOT, 'tools', 'codegen', 'src', 'cli.ts'), '--write', '--root', dir], { stdio: 'pipe' });
  firstRelease = dir;
  return dir;
}

function linkModules(root: string): void {
  symlinkSync(join(REAL_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  symlinkSync(join(REAL_ROOT, 'packages', 'schema', 'node_modules'), join(root, 'packages', 'schema', 'node_modules'), 'dir');
  writeFileSync(join(root, 'tsconfig.base.json'), readFileSync(join(REAL_ROOT, 'tsconfig.base.json')));
}

function copyWorkingTree(root: string): void {
  cpSync(join(REAL_ROOT, 'spec'), join(root, 'spec'), { recursive: true });
  cpSync(join(REAL_ROOT, '.changeset'), join(root, '.changeset'), { recursive: true });
  const schemaPackage = join(REAL_ROOT, 'packages', 'schema');
  const copy = join(root, 'packages', 'schema');
  mkdirSync(copy, { recursive: true });
  cpSync(schemaPackage, copy, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|dist)([/\\]|$)/.test(source.slice(schemaPackage.length)),
  });
}

export function createTempRepo(): TempRepo {
  const root = mkdtempSync(join(tmpdir(), 'mcpproxy-codegen-'));
  const snapshot = firstReleaseSnapshot();
  if (snapshot === undefined) copyWorkingTree(root);
  else cpSync(snapshot, root, { recursive: true, filter: (source) => !/[/\\](node_modules|tsconfig\.base\.json)$/.test(source) });
  linkModules(root);
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
