import { parseChangeset } from '@mcpproxy/codegen/src/changeset-check.js';
import { describe, expect, it } from 'vitest';
import { changesetWordingProblems, pendingChangesetWordingProblems } from '../src/changeset-wording.js';
import { defaultRoot } from '../src/release-options.js';

const changeset = (file: string, summary: string) => parseChangeset(file, `---\n"@mcpproxy/ui": minor\n---\n\n${summary}\n`)!;

describe('changeset wording', () => {
  it('names a summary whose first line the changelog formatter would rewrite, and how', () => {
    const problems = changesetWordingProblems([changeset('ui-login.md', "The UI's *Log in* button starts the server's OAuth login.\n\nMore words.")]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'changeset_wording', subject: '.changeset/ui-login.md' });
    expect(problems[0]!.message).toContain('"The UI\'s *Log in* button');
    expect(problems[0]!.message).toContain('"The UI\'s _Log in_ button');
  });

  it('passes a first line the formatter keeps, whatever follows it', () => {
    const summary = 'The UI\'s "Log in" button starts the `mcpproxy auth login` flow.\n\n* a list prettier rewrites\n* below the first line';
    expect(changesetWordingProblems([changeset('ui-login.md', summary)])).toEqual([]);
  });

  it('reports every offending changeset at once, and an empty summary', () => {
    const problems = changesetWordingProblems([
      changeset('a.md', '+ a plus-sign list item'),
      changeset('b.md', 'Fine as written.'),
      changeset('c.md', ''),
    ]);
    expect(problems.map((p) => p.subject)).toEqual(['.changeset/a.md', '.changeset/c.md']);
  });

  it("holds for this repository's pending changesets", () => {
    expect(pendingChangesetWordingProblems(defaultRoot())).toEqual([]);
  });
});
