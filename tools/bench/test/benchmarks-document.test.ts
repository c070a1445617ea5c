// BENCHMARKS.md's summary as `pnpm bench --write` rewrites it: the new run between its markers, the
// run it replaces first in the history, everything else untouched; a document without the markers is
// refused with what is missing; and the repository's own BENCHMARKS.md has them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HISTORY_END, HISTORY_START, SUMMARY_END, SUMMARY_START, writeSummary } from '../src/benchmarks-document.js';

const run = (date: string) => `### \`pnpm bench\` run of ${date} at commit \`abc1234\`\n\n| target | measure | figure (this run) | target | met |\n|---|---|---|---|---|\n| rider-2025 | m | 1.05x | <= 1.2x | met |`;
const document = ['# Benchmarks', '', 'How to run.', SUMMARY_START, 'No run recorded yet.', SUMMARY_END, '', '## Earlier runs', HISTORY_START, HISTORY_END, '', '## Rider', 'Setup text.', ''].join('\n');

function written(doc: string, summary: string): string {
  const outcome = writeSummary(doc, summary);
  if (!outcome.ok) throw new Error(outcome.error);
  return outcome.document;
}

describe('writing a run into BENCHMARKS.md', () => {
  it('replaces the placeholder, then moves each replaced run to the top of the history', () => {
    const first = written(document, run('2026-12-03 08:00 UTC'));
    expect(first).toContain(`${SUMMARY_START}\n${run('2026-12-03 08:00 UTC')}\n${SUMMARY_END}`);
    expect(first).not.toContain('No run recorded yet.');
    expect(first).toContain(`${HISTORY_START}\n${HISTORY_END}`);

    const second = written(first, run('2026-12-04 08:00 UTC'));
    const third = written(second, run('2026-12-05 08:00 UTC'));
    expect(third).toContain(`${SUMMARY_START}\n${run('2026-12-05 08:00 UTC')}\n${SUMMARY_END}`);
    expect(third).toContain(`${HISTORY_START}\n${run('2026-12-04 08:00 UTC')}\n\n${run('2026-12-03 08:00 UTC')}\n${HISTORY_END}`);
    // Everything outside the markers is as it was.
    expect(third.slice(0, third.indexOf(SUMMARY_START))).toBe('# Benchmarks\n\nHow to run.\n');
    expect(third.slice(third.indexOf(HISTORY_END))).toBe(`${HISTORY_END}\n\n## Rider\nSetup text.\n`);
  });

  it('refuses a document without its markers, or with them out of order, and says which', () => {
    expect(writeSummary('# Benchmarks\n', run('x'))).toEqual({ ok: false, error: `BENCHMARKS.md has no line ${SUMMARY_START}` });
    expect(writeSummary(`${SUMMARY_START}\n${SUMMARY_END}\n`, run('x'))).toEqual({ ok: false, error: `BENCHMARKS.md has no line ${HISTORY_START}` });
    expect(writeSummary(`${SUMMARY_START}\n`, run('x'))).toEqual({ ok: false, error: `BENCHMARKS.md has no ${SUMMARY_END} after ${SUMMARY_START}` });
    expect(writeSummary(`${HISTORY_START}\n${HISTORY_END}\n${SUMMARY_START}\n${SUMMARY_END}\n`, run('x'))).toEqual({ ok: false, error: 'the history markers must come after the latest-run markers' });
  });

  it("the repository's BENCHMARKS.md can take a run", () => {
    const real = readFileSync(new URL('../../../BENCHMARKS.md', import.meta.url), 'utf8');
    const outcome = writeSummary(real, run('2026-12-03 08:00 UTC'));
    expect(outcome.ok).toBe(true);
  });
});
