// `pnpm registry`, run as a child process on a scratch copy whose schema CHANGELOG says settings
// version 1 has shipped: each command does the whole spec-side change, leaves codegen passing,
// and on any error leaves the tree as it was.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodegen } from '../src/run-codegen.js';
import { NEW_CODE } from './registry-edits.js';
import { createTempRepo, REAL_ROOT, type TempRepo } from './temp-repo.js';

const CLI = join(REAL_ROOT, 'tools', 'codegen', 'src', 'registry-cli.ts');
const TSX = join(REAL_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const SLOW = 300_000;

function registry(repo: TempRepo, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [TSX, CLI, ...args, '--root', repo.root], { cwd: tmpdir(), encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const ADD = ['add', '--code', NEW_CODE, '--class', 'retryable', '--surfaces', 'all', '--detail', 'Server {server} is rate limiting the gateway.', '--remediation', 'Retry shortly.'];

function treeHash(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (name === 'node_modules') continue;
      if (statSync(full).isDirectory()) walk(full);
      else hash.update(relative(root, full)).update(readFileSync(full));
    }
  };
  walk(root);
  return hash.digest('hex');
}

describe('pnpm registry', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = createTempRepo();
  });
  afterEach(() => repo.dispose());

  const reasons = (): { settings_version: number; reasons: Record<string, Record<string, unknown>> } => repo.readJson('spec/reasons.json');
  const problems = async (): Promise<string[]> => (await runCodegen(repo.root, false)).problems.map((p) => `[${p.code}] ${p.message}`);

  it('--help on each command lists its flags and exits 0', () => {
    for (const [command, flags] of [
      ['add', ['--code', '--class', '--verdict', '--action', '--diagnostic-actions', '--surfaces', '--status', '--detail', '--remediation', '--variant-detail']],
      ['deprecate', ['--code', '--replaced-by']],
      ['activate', ['--code', '--surfaces']],
      ['reword', ['--code', '--detail', '--remediation', '--variant-remediation']],
    ] as const) {
      const result = spawnSync(process.execPath, [TSX, CLI, command, '--help'], { encoding: 'utf8' });
      expect(result.status, command).toBe(0);
      for (const f of flags) expect(result.stdout, `${command} ${f}`).toContain(f);
    }
  }, SLOW);

  it('add: one command, then codegen passes; a second add before the release amends the same version', async () => {
    const first = registry(repo, ...ADD);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('settings version 2 (new)');
    expect(first.stdout).toContain('Left for you to write by hand:');
    expect(first.stdout).toContain('packages/schema/test/registry-constants.test.ts');
    expect(reasons().settings_version).toBe(2);
    expect(reasons().reasons[NEW_CODE]).toMatchObject({ class: 'retryable', verdict: 'degraded_retryable', since: 2, status: 'active' });
    expect(Object.hasOwn(reasons().reasons[NEW_CODE]!, 'retryable')).toBe(false);
    expect(repo.read('spec/released/v2.json')).toBe(repo.read('spec/reasons.json'));
    expect(await problems()).toEqual([]);

    const second = registry(repo, 'add', '--code', 'upstream_busy', '--class', 'fix_state', '--verdict', 'blocked', '--action', 'configure', '--surfaces', 'rest_operator,rest_agent', '--detail', 'Server {server} is busy.', '--remediation', 'Check mcpproxy servers list.');
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toContain('settings version 2 (amended; not released yet)');
    expect(reasons().settings_version).toBe(2);
    const changesets = readdirSync(join(repo.root, '.changeset')).filter((f) => f.startsWith('settings-version'));
    expect(changesets).toEqual(['settings-version-2.md']);
    const text = repo.read('.changeset/settings-version-2.md');
    expect(text).toContain('"@mcpproxy/schema": minor');
    expect(text).toContain(`Reason registry settings version 2: adds ${NEW_CODE} (retryable, degraded_retryable, exit 10; every surface); adds upstream_busy (fix_state, blocked, exit 11, action configure; rest_operator, rest_agent).`);
    expect(await problems()).toEqual([]);
  }, SLOW);

  it('an error names the cause and leaves the tree unchanged, including one only codegen finds', () => {
    const before = treeHash(repo.root);
    const unknownAction = registry(repo, ...ADD, '--action', 'wait');
    expect(unknownAction.status).toBe(1);
    expect(unknownAction.stderr).toContain("action wait is not in the registry's actions");
    const badPlaceholder = registry(repo, 'add', '--code', NEW_CODE, '--class', 'permanent', '--verdict', 'blocked', '--surfaces', 'all', '--detail', 'Server {bogus}.', '--remediation', 'x');
    expect(badPlaceholder.status).toBe(1);
    expect(badPlaceholder.stderr).toContain('the change does not pass the codegen check, so nothing was written');
    expect(badPlaceholder.stderr).toContain('placeholder {bogus} is not one of');
    expect(registry(repo, 'add', '--code', 'tool_changed', '--class', 'permanent', '--verdict', 'blocked', '--surfaces', 'all', '--detail', 'x', '--remediation', 'y').stderr).toContain('the registry already has tool_changed');
    expect(registry(repo, 'frobnicate').status).toBe(2);
    expect(registry(repo, 'add', '--code', NEW_CODE).stderr).toContain('missing --class, --detail, --remediation');
    expect(treeHash(repo.root)).toBe(before);
  }, SLOW);

  it('deprecate --replaced-by records the replacement and names both in the changeset', async () => {
    const result = registry(repo, 'deprecate', '--code', 'hash_mismatch', '--replaced-by', 'tool_changed');
    expect(result.status, result.stderr).toBe(0);
    expect(reasons().reasons['hash_mismatch']).toMatchObject({ status: 'deprecated', deprecated_in: 2, replaced_by: 'tool_changed' });
    expect(repo.read('.changeset/settings-version-2.md')).toContain('deprecates hash_mismatch (replaced by tool_changed)');
    expect(await problems()).toEqual([]);
  }, SLOW);

  it('reword: no new settings version, a patch changeset, the released copy untouched', async () => {
    const v1 = repo.read('spec/released/v1.json');
    const result = registry(repo, 'reword', '--code', 'tool_changed', '--remediation', 'Approve the new version: mcpproxy tools approve {id}');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('no new settings version');
    expect(reasons().settings_version).toBe(1);
    expect(repo.read('spec/released/v1.json')).toBe(v1);
    expect(repo.read('.changeset/reword-tool-changed.md')).toBe('---\n"@mcpproxy/schema": patch\n---\n\nReason registry: new wording for tool_changed (remediation).\n');
    expect(await problems()).toEqual([]);
  }, SLOW);
});
