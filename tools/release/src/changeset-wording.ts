// `changeset version` writes each pending summary into CHANGELOG.md through prettier's markdown
// formatter (2.8.8, the one @changesets/apply-release-plan falls back to: this repository has no
// prettier of its own at its root). A summary whose first line the formatter rewrites (`*x*`
// becomes `_x_`, `+ item` becomes `- item`) ships release notes that differ from what was
// reviewed, and the release end-to-end test, which looks for that line verbatim, fails only after
// the whole release ran. This check names the changeset and the rewritten line before that.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readChangesets, type Changeset } from '@mcpproxy/codegen/src/changeset-check.js';
import type { ReleaseProblem } from './release-problem.js';

interface MarkdownFormatter {
  format(text: string, options: { readonly parser: 'markdown' }): string;
}

const prettier = createRequire(import.meta.url)('prettier') as MarkdownFormatter;

/** The line the changelog and the release e2e quote: the summary's first line, trimmed. */
export function summaryFirstLine(changeset: Pick<Changeset, 'body'>): string {
  return changeset.body.trim().split('\n')[0]!.trim();
}

export function changesetWordingProblems(changesets: readonly Changeset[]): ReleaseProblem[] {
  return changesets.flatMap((changeset) => {
    const line = summaryFirstLine(changeset);
    if (line === '') {
      return [{ code: 'changeset_wording' as const, subject: `.changeset/${changeset.file}`, message: 'the summary is empty: write what changed for a user as its first line' }];
    }
    const formatted = prettier.format(changeset.body.trim(), { parser: 'markdown' });
    if (formatted.includes(line)) return [];
    const rewritten = formatted.trim().split('\n')[0]!.trim();
    return [
      {
        code: 'changeset_wording' as const,
        subject: `.changeset/${changeset.file}`,
        message:
          `changeset version would rewrite the summary's first line ${JSON.stringify(line)} as ${JSON.stringify(rewritten)}: ` +
          'write it the way the changelog will print it (for example "quotes" rather than *emphasis*)',
      },
    ];
  });
}

export function pendingChangesetWordingProblems(root: string): ReleaseProblem[] {
  return changesetWordingProblems(readChangesets(join(root, '.changeset')));
}
