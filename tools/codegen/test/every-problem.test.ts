// One run reports every guard problem, even when emitting fails, and no hint that the bump it
// asks for would make moot (issue 15: the consistency message was lost behind the emit error,
// and a missing bump came with "since 2 is after settings_version 1" and a changeset_missing
// naming version 1).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodegen } from '../src/run-codegen.js';
import { editRegistry, NEW_CODE, newCodeEntry } from './registry-edits.js';
import { createTempRepo, type TempRepo } from './temp-repo.js';

describe('every problem at once', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = createTempRepo();
  });
  afterEach(() => repo.dispose());

  const problems = async (): Promise<{ code: string; message: string }[]> => [...(await runCodegen(repo.root, false)).problems];

  it('an unknown action is named by the consistency guard next to the emit failure and the bump', async () => {
    editRegistry(repo, (r) => {
      r.reasons[NEW_CODE] = { ...newCodeEntry(2), action: 'wait' };
    });
    const found = await problems();
    const codes = found.map((p) => p.code);
    expect(found.map((p) => p.message)).toContainEqual(`spec/reasons.json: ${NEW_CODE}: action wait is not in actions`);
    expect(codes).toContain('version_bump_needed');
    expect(codes).toContain('emit_failed');
  });

  it('a code added without a bump: the bump hint, the changeset for the version it names, nothing the bump makes moot', async () => {
    editRegistry(repo, (r) => {
      r.reasons[NEW_CODE] = newCodeEntry(2);
    });
    const found = await problems();
    const text = found.map((p) => `[${p.code}] ${p.message}`).join('\n');
    expect(text).toContain('bump settings_version to 2');
    expect(text).not.toMatch(/is after settings_version 1/);
    expect(text).not.toMatch(/settings version 1 has not shipped/);
    const changeset = found.filter((p) => p.code === 'changeset_missing');
    expect(changeset).toHaveLength(1);
    expect(changeset[0]?.message).toContain(`settings version 2 has not shipped`);
    expect(changeset[0]?.message).toContain(`names ${NEW_CODE}`);
  });

  it('a deprecation without a bump: no "deprecated_in must be at most settings_version" next to the bump hint', async () => {
    editRegistry(repo, (r) => {
      r.reasons['hash_mismatch']!['status'] = 'deprecated';
      r.reasons['hash_mismatch']!['deprecated_in'] = 2;
    });
    const text = (await problems()).map((p) => p.message).join('\n');
    expect(text).toContain('status of hash_mismatch changed from active to deprecated');
    expect(text).not.toContain('deprecated_in 2 must be');
  });

  it('a stamp the bump does not fix is still reported', async () => {
    editRegistry(repo, (r) => {
      r.reasons[NEW_CODE] = newCodeEntry(3);
    });
    expect((await problems()).map((p) => p.message)).toContainEqual(`spec/reasons.json: ${NEW_CODE}: since 3 is after settings_version 2`);
  });
});
