// The command itself, run the way a developer runs it: a child process, from another cwd.
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempRepo, REAL_ROOT, type TempRepo } from './temp-repo.js';

const CLI = join(REAL_ROOT, 'tools', 'codegen', 'src', 'cli.ts');
const TSX = join(REAL_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

function run(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [TSX, CLI, ...args], { cwd: tmpdir(), encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('codegen cli', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = createTempRepo();
  });
  afterEach(() => repo.dispose());

  it('checks the real tree from any cwd and exits 0', () => {
    const out = execFileSync(process.execPath, [TSX, CLI], { cwd: tmpdir(), encoding: 'utf8' });
    expect(out).toContain('generated files are up to date');
  });

  it('exits 1 on drift and prints each file with the command to run', () => {
    repo.write('packages/schema/src/generated/types.ts', '// edited\n');
    const result = run(['--root', repo.root]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('packages/schema/src/generated/types.ts: differs from what spec/ generates; run: pnpm codegen:write');
    expect(run(['--root', repo.root, '--write']).status).toBe(0);
    expect(run(['--root', repo.root]).status).toBe(0);
    // Three whole codegen runs in child processes: tens of seconds each on a loaded 2-core machine.
  }, 300_000);

  it('fails with a clear message on an unknown placeholder form', () => {
    const path = 'spec/required-tools.schema.json';
    repo.write(path, repo.read(path).replace('"x-registry": "verdict"', '"x-registry": "verdicts"'));
    const result = run(['--root', repo.root]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('[unknown_placeholder]');
    expect(result.stderr).toContain('unknown placeholder {"x-registry": "verdicts"}');
  });

  it('rejects an unknown argument with exit 2', () => {
    expect(run(['--frobnicate']).status).toBe(2);
  });
});
