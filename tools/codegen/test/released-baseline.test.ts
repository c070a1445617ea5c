// A released frozen copy cannot be edited by any commit: it is compared with its content at the
// commit that released it (the first whose schema CHANGELOG names the version).
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodegen } from '../src/run-codegen.js';
import { commitAll, git } from './git-repo.js';
import { bumpAndFreeze, editRegistry, type RegistryJson } from './registry-edits.js';
import { createTempRepo, type TempRepo } from './temp-repo.js';

const UNRELEASED_CHANGELOG = '# @mcpproxy/schema\n';
const V1_CHANGELOG = '# @mcpproxy/schema\n\n## 0.1.0\n\n- Reason registry at settings version 1.\n';

function rewordV1(repo: TempRepo, file: string): void {
  editRegistry(repo, (r) => {
    const entry = r.reasons['tool_changed'] as { wording: { detail: string } };
    entry.wording.detail = 'Tool {tool} changed since it was approved (edited).';
  }, file);
}

describe('released frozen copies are anchored in git history', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = createTempRepo();
    // History: v1 frozen but not yet released, then the release commit that names it.
    repo.write('packages/schema/CHANGELOG.md', UNRELEASED_CHANGELOG);
    commitAll(repo, 'settings version 1 frozen');
    repo.write('packages/schema/CHANGELOG.md', V1_CHANGELOG);
    git(repo, 'commit', '-q', '-am', 'Version packages');
  });
  afterEach(() => repo.dispose());

  const problems = async (): Promise<string[]> => (await runCodegen(repo.root, false)).problems.map((p) => `[${p.code}] ${p.message}`);

  it('passes on the release commit itself', async () => {
    expect(await problems()).toEqual([]);
  });

  it('refuses an edit of the released copy, with the registry edited to match, committed or not', async () => {
    rewordV1(repo, 'spec/released/v1.json');
    rewordV1(repo, 'spec/reasons.json');
    const release = git(repo, 'rev-parse', '--short=12', 'HEAD').trim();
    const expected = `[released_copy_edited] spec/released/v1.json differs from its content at commit ${release}, which released settings version 1`;
    expect((await problems()).join('\n')).toContain(expected);
    git(repo, 'commit', '-q', '-am', 'edit the baseline');
    expect((await problems()).join('\n')).toContain(expected);
    expect((await problems()).join('\n')).toContain('a released frozen copy is the baseline every later registry is checked against');
  });

  it('keeps an unreleased copy editable: a new version frozen, then amended before its release', async () => {
    // One above the tree's own version, whatever that is (only v1 is released in this history).
    const next = repo.readJson<RegistryJson>('spec/reasons.json').settings_version + 1;
    bumpAndFreeze(repo, next);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', `settings version ${next}`);
    rewordV1(repo, `spec/released/v${next}.json`);
    rewordV1(repo, 'spec/reasons.json');
    expect((await problems()).filter((p) => p.includes('released_copy_edited'))).toEqual([]);
  });

  it('a shallow clone cut at the release commit says how to get the history instead of guessing, as a note', async () => {
    const clone = join(repo.root, '..', `${repo.root.split(/[/\\]/).pop() ?? 'repo'}-shallow`);
    try {
      git(repo.root, 'clone', '-q', '--depth', '1', `file://${repo.root}`, clone);
      symlinkSync(join(repo.root, 'node_modules'), join(clone, 'node_modules'), 'dir');
      symlinkSync(join(repo.root, 'packages', 'schema', 'node_modules'), join(clone, 'packages', 'schema', 'node_modules'), 'dir');
      const outcome = await runCodegen(clone, false);
      // Said, not failed: a shallow clone cannot fetch its history offline.
      expect(outcome.problems).toEqual([]);
      const found = outcome.notes;
      expect(found.map((p) => p.code)).toEqual(['baseline_unverifiable']);
      expect(found[0]?.message).toContain('git fetch --unshallow');
      expect(found[0]?.message).toContain('fetch-depth: 0');
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  });
});
