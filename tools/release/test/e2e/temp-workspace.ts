// A throwaway copy of the repository for the end-to-end test, so versioning, regenerating and
// publishing never touch the real tree. It holds what git would commit (tracked files plus
// untracked ones not ignored), and reuses the installed dependencies: the root node_modules is
// linked, each package's node_modules (pnpm's relative links) is copied link for link, so
// workspace links point into the copy and everything else into the one installed store.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface TempWorkspace {
  readonly root: string;
  dispose(): void;
}

function filesGitWouldCommit(source: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: source, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  // node_modules are linked below, whatever git thinks of them (a linked one is not ignored by "node_modules/").
  return out.split('\0').filter((path) => path !== '' && !/(^|\/)node_modules(\/|$)/.test(path) && existsSync(join(source, path)));
}

function memberDirectories(root: string): string[] {
  return ['packages', 'tools'].flatMap((group) => {
    const dir = join(root, group);
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(group, e.name));
  });
}

/** Copies the link farm pnpm made, without the caches tools leave in it. */
function copyLinkFarm(from: string, to: string): void {
  cpSync(from, to, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (path) => !/[/\\]node_modules[/\\]\.(vite|vite-temp|cache)([/\\]|$)/.test(path),
  });
}

export function createTempWorkspace(source: string, prefix = 'mcpproxy-release-repo-'): TempWorkspace {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const path of filesGitWouldCommit(source)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(source, path), target, { verbatimSymlinks: true });
  }
  symlinkSync(join(source, 'node_modules'), join(root, 'node_modules'), 'dir');
  for (const member of memberDirectories(source)) {
    const modules = join(source, member, 'node_modules');
    if (existsSync(modules) && lstatSync(modules).isDirectory() && existsSync(join(root, member))) {
      copyLinkFarm(modules, join(root, member, 'node_modules'));
    }
  }
  return { root, dispose: () => rmSync(root, { recursive: true, force: true }) };
}
