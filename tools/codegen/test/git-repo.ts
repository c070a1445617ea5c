// A scratch copy made into a git repository with one commit, for the guards that read history.
import { execFileSync } from 'node:child_process';
import type { TempRepo } from './temp-repo.js';

export function git(repo: TempRepo | string, ...args: string[]): string {
  const cwd = typeof repo === 'string' ? repo : repo.root;
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
}

/** git init, then commit everything (node_modules links left out) with the given message. */
export function commitAll(repo: TempRepo, message: string): void {
  repo.write('.gitignore', 'node_modules\n');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}
