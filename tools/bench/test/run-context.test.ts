// The commit a run's table names, read from a real git repository made for the test: a change to the
// table's own file leaves it clean, a change to anything else that is tracked marks it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startContext } from '../src/run-context.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A repository with one commit holding BENCHMARKS.md and src.ts; returns its path and short commit. */
function repository(): { dir: string; commit: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-context-'));
  made.push(dir);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q');
  writeFileSync(join(dir, 'BENCHMARKS.md'), '# Benchmarks\n');
  writeFileSync(join(dir, 'src.ts'), 'export const a = 1;\n');
  git('add', '.');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'first');
  return { dir, commit: git('rev-parse', '--short', 'HEAD') };
}

describe("a run's commit", () => {
  it('is the commit alone while only the table it writes to has changed (a second --write)', () => {
    const { dir, commit } = repository();
    writeFileSync(join(dir, 'BENCHMARKS.md'), '# Benchmarks\n\nthe previous run\n');
    expect(startContext(dir, 'BENCHMARKS.md', { env: {}, speed: () => 40 }).commit).toBe(commit);
  });

  it('is marked when any other tracked file differs from the commit', () => {
    const { dir, commit } = repository();
    writeFileSync(join(dir, 'BENCHMARKS.md'), '# Benchmarks\n\nthe previous run\n');
    writeFileSync(join(dir, 'src.ts'), 'export const a = 2;\n');
    expect(startContext(dir, 'BENCHMARKS.md', { env: {}, speed: () => 40 }).commit).toBe(`${commit} (with uncommitted changes)`);
  });

  it('names the BENCH_ settings it was given, and nothing else of the environment', () => {
    const { dir } = repository();
    expect(startContext(dir, 'BENCHMARKS.md', { env: { BENCH_ROUNDS: '100', HOME: '/root', RIDER_TYPOS: '1' }, speed: () => 40 }).settings).toEqual(['BENCH_ROUNDS=100', 'RIDER_TYPOS=1']);
  });
});
