import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseChangeset } from '../src/changeset-check.js';
import { runCodegen } from '../src/run-codegen.js';
import { addChangeset, bumpAndFreeze, editRegistry, NEW_CODE, newCodeEntry } from './registry-edits.js';
import { createTempRepo, type TempRepo } from './temp-repo.js';

describe('pending changeset for an unshipped settings version', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = createTempRepo();
    editRegistry(repo, (r) => {
      r.reasons[NEW_CODE] = newCodeEntry(2);
    });
    bumpAndFreeze(repo, 2);
  });
  afterEach(() => repo.dispose());

  const changesetMessages = async (): Promise<string[]> =>
    (await runCodegen(repo.root, true)).problems.filter((p) => p.code === 'changeset_missing').map((p) => p.message);

  it('fails without a changeset, saying what to add', async () => {
    const [message] = await changesetMessages();
    expect(message).toContain('settings version 2 has not shipped');
    expect(message).toContain(`"@mcpproxy/schema": minor whose body says "settings version 2" and names ${NEW_CODE}`);
  });

  it('fails with a patch changeset', async () => {
    addChangeset(repo, 'v2', 'patch', `Settings version 2: adds ${NEW_CODE}.`);
    expect(await changesetMessages()).toHaveLength(1);
  });

  it('fails when the changeset does not name the added code', async () => {
    addChangeset(repo, 'v2', 'minor', 'Settings version 2: one more reason.');
    expect(await changesetMessages()).toEqual([
      expect.stringContaining(`.changeset/v2.md does not name every code it adds or deprecates: missing ${NEW_CODE}`),
    ]);
  });

  it('passes with a minor or major changeset naming the version and the code', async () => {
    addChangeset(repo, 'v2', 'major', `Reason registry settings version 2 adds \`${NEW_CODE}\`.`);
    expect(await changesetMessages()).toEqual([]);
  });

  it('passes once the CHANGELOG shows the version shipped', async () => {
    repo.write('packages/schema/CHANGELOG.md', '# @mcpproxy/schema\n\n## 0.2.0\n\n- Settings version 2.\n');
    expect(await changesetMessages()).toEqual([]);
  });

  it('requires a changeset for v1 while nothing has shipped', async () => {
    const fresh = createTempRepo();
    try {
      fresh.remove('packages/schema/CHANGELOG.md');
      const problems = (await runCodegen(fresh.root, false)).problems;
      expect(problems.map((p) => p.message).join('\n')).toContain('settings version 1 has not shipped');
    } finally {
      fresh.dispose();
    }
  });
});

describe('parseChangeset', () => {
  it('reads the frontmatter releases and the body', () => {
    const parsed = parseChangeset('x.md', `---\n"@mcpproxy/schema": minor\n'@mcpproxy/cli': patch\n---\n\nBody text\n`);
    expect(parsed?.releases.get('@mcpproxy/schema')).toBe('minor');
    expect(parsed?.releases.get('@mcpproxy/cli')).toBe('patch');
    expect(parsed?.body.trim()).toBe('Body text');
  });

  it('ignores a file without frontmatter', () => {
    expect(parseChangeset('x.md', 'no frontmatter')).toBeUndefined();
  });
});
