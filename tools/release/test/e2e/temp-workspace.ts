// A throwaway copy of the repository for the end-to-end test, so versioning, regenerating and
// publishing never touch the real tree. It holds what git would commit (tracked files plus
// untracked ones not ignored), and reuses the installed dependencies: the root node_modules is
// rebuilt from links to the real entries, each package's node_modules (pnpm's relative links) is
// copied link for link, so workspace links point into the copy and everything else into the one
// installed store. pnpm commands in the copy must not install (they would write through the
// links): run them with pnpmEnv(). A copy of an earlier commit (the v1 release) holds that
// commit's files instead, from `git archive`, and the same links: every third-party package its
// lockfile resolves must be installed here (lockfile-snapshots.ts), which createTempWorkspace checks.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unservedKeys } from './lockfile-snapshots.js';

const PNPM_STATE = /^\.(modules\.yaml|pnpm-workspace-state.*\.json)$/;

export interface TempWorkspace {
  readonly root: string;
  dispose(): void;
}

/** pnpm 12 installs before `pnpm run` unless told not to; in the copy that would reach the real store. */
export function pnpmEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...base, pnpm_config_verify_deps_before_run: 'false' };
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

/**
 * The root node_modules as a folder of links to the real entries, with pnpm's own state files
 * copied rather than linked (nx reads them): whatever pnpm records about the copy stays there.
 */
function linkRootModules(from: string, to: string): void {
  mkdirSync(to);
  for (const entry of readdirSync(from)) {
    if (PNPM_STATE.test(entry)) copyFileSync(join(from, entry), join(to, entry));
    else symlinkSync(join(from, entry), join(to, entry));
  }
}

const GIT_TIMEOUT_MS = 120_000;

/** The commit's tree, extracted into root (no .git: the copy has no history to edit). */
function extractCommit(source: string, commit: string, root: string): void {
  const archive = join(root, '.commit.tar');
  execFileSync('git', ['archive', '--format=tar', '-o', archive, commit], { cwd: source, stdio: 'ignore', timeout: GIT_TIMEOUT_MS });
  execFileSync('tar', ['-xf', archive, '-C', root], { stdio: 'ignore', timeout: GIT_TIMEOUT_MS });
  rmSync(archive);
}

/** The copy reuses this node_modules: every package the commit resolves must be installed here. */
function expectInstalledHere(source: string, root: string, commit: string): void {
  const missing = unservedKeys(readFileSync(join(root, 'pnpm-lock.yaml'), 'utf8'), readFileSync(join(source, 'pnpm-lock.yaml'), 'utf8'));
  if (missing.length > 0) {
    throw new Error(`${commit} resolves packages the installed tree does not have, so its copy cannot reuse this node_modules: ${missing.slice(0, 5).join(', ')}`);
  }
}

/** A copy of the working tree, or with `commit` of that commit's tree, linked to the installed dependencies. */
export function createTempWorkspace(source: string, prefix = 'mcpproxy-release-repo-', commit?: string): TempWorkspace {
  const root = mkdtempSync(join(tmpdir(), prefix));
  if (commit === undefined) {
    for (const path of filesGitWouldCommit(source)) {
      const target = join(root, path);
      mkdirSync(dirname(target), { recursive: true });
      cpSync(join(source, path), target, { verbatimSymlinks: true });
    }
  } else {
    extractCommit(source, commit, root);
    expectInstalledHere(source, root, commit);
  }
  linkRootModules(join(source, 'node_modules'), join(root, 'node_modules'));
  for (const member of memberDirectories(source)) {
    const modules = join(source, member, 'node_modules');
    if (existsSync(modules) && lstatSync(modules).isDirectory() && existsSync(join(root, member))) {
      copyLinkFarm(modules, join(root, member, 'node_modules'));
    }
  }
  return { root, dispose: () => rmSync(root, { recursive: true, force: true }) };
}
