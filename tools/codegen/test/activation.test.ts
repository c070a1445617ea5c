// A reserved code becomes active once, with a settings-version bump: its surfaces change then
// (activated_in records it) and never again; nothing else about it changes.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodegen } from '../src/run-codegen.js';
import { editRegistry } from './registry-edits.js';
import { createTempRepo, REAL_ROOT, type TempRepo } from './temp-repo.js';

const CLI = join(REAL_ROOT, 'tools', 'codegen', 'src', 'registry-cli.ts');
const TSX = join(REAL_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const SURFACES_ON = { rest_operator: true, rest_agent: true, rider: true, check: true, resolve: true };

describe('activating a reserved code', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = createTempRepo();
  });
  afterEach(() => repo.dispose());

  const activate = (...extra: string[]) =>
    spawnSync(process.execPath, [TSX, CLI, 'activate', '--code', 'server_saturated', '--surfaces', 'all', ...extra, '--root', repo.root], { encoding: 'utf8' });
  const messages = async (): Promise<string> => (await runCodegen(repo.root, false)).problems.map((p) => `[${p.code}] ${p.message}`).join('\n');

  it('passes once, keeping every column the reservation set; a second activation is refused', async () => {
    const before = repo.readJson<{ reasons: Record<string, Record<string, unknown>> }>('spec/reasons.json').reasons['server_saturated']!;
    const result = activate();
    expect(result.status, result.stderr).toBe(0);
    const after = repo.readJson<{ settings_version: number; reasons: Record<string, Record<string, unknown>> }>('spec/reasons.json');
    expect(after.settings_version).toBe(2);
    expect(after.reasons['server_saturated']).toEqual({ ...before, surfaces: SURFACES_ON, status: 'active', activated_in: 2 });
    expect(repo.read('.changeset/settings-version-2.md')).toContain('activates server_saturated (retryable, degraded_retryable, exit 10; every surface)');
    expect(await messages()).toBe('');
    const again = activate();
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('server_saturated is active, not reserved');
  }, 300_000);

  it('refuses changing the surfaces again once the activation has shipped', async () => {
    expect(activate().status).toBe(0);
    repo.write('packages/schema/CHANGELOG.md', `${repo.read('packages/schema/CHANGELOG.md')}\n## 0.2.0\n\n- Reason registry settings version 2.\n`);
    editRegistry(repo, (r) => {
      (r.reasons['server_saturated'] as { surfaces: Record<string, boolean> }).surfaces.resolve = false;
    });
    expect(await messages()).toContain(
      'code server_saturated: surfaces changed from {"rest_operator":true,"rest_agent":true,"rider":true,"check":true,"resolve":true} to {"rest_operator":true,"rest_agent":true,"rider":true,"check":true,"resolve":false}; it is immutable once released (a semantic change needs a new extension identifier); surfaces change once only, when a reserved code is activated, and this code is not reserved',
    );
  }, 300_000);

  it('refuses changing the surfaces of an active code, and says what the one exception is', async () => {
    editRegistry(repo, (r) => {
      (r.reasons['hash_mismatch'] as { surfaces: Record<string, boolean> }).surfaces.rider = true;
    });
    expect(await messages()).toContain('code hash_mismatch: surfaces changed from');
    expect(await messages()).toContain('surfaces change once only, when a reserved code is activated, and this code is not reserved');
  });

  it('an activation by hand without activated_in, or with a changed class, fails', async () => {
    expect(activate().status).toBe(0);
    editRegistry(repo, (r) => {
      delete r.reasons['server_saturated']!['activated_in'];
    });
    editRegistry(repo, (r) => {
      delete r.reasons['server_saturated']!['activated_in'];
    }, 'spec/released/v2.json');
    expect(await messages()).toContain('reserved code server_saturated activated now must have activated_in 2, not undefined');
    editRegistry(repo, (r) => {
      r.reasons['server_saturated']!['class'] = 'fix_state';
    });
    expect(await messages()).toContain('code server_saturated: class changed from "retryable" to "fix_state"');
  }, 300_000);

  it('an active code cannot go back to reserved', async () => {
    editRegistry(repo, (r) => {
      r.reasons['tool_changed']!['status'] = 'reserved';
    });
    expect(await messages()).toContain('code tool_changed: an active code cannot become reserved again');
  });
});
