/**
 * BENCHMARKS.md's summary: the table of the latest `pnpm bench --write` run between two markers, and
 * the runs before it between two more, newest first, marked as history. Writing a run moves the
 * summary it replaces into the history; nothing else in the document changes.
 */
export const SUMMARY_START = '<!-- pnpm bench: latest run (written by `pnpm bench --write`; do not edit by hand) -->';
export const SUMMARY_END = '<!-- pnpm bench: latest run end -->';
export const HISTORY_START = '<!-- pnpm bench: earlier runs, newest first (moved here by `pnpm bench --write`) -->';
export const HISTORY_END = '<!-- pnpm bench: earlier runs end -->';

/** The heading every run's table starts with (summary-table.ts). */
const RUN_HEADING = '### `pnpm bench` run of ';

export type WriteOutcome = { readonly ok: true; readonly document: string } | { readonly ok: false; readonly error: string };

/** `document` with `summary` as its latest run and the run it replaces at the top of its history. */
export function writeSummary(document: string, summary: string): WriteOutcome {
  const summaryAt = section(document, SUMMARY_START, SUMMARY_END);
  if (typeof summaryAt === 'string') return { ok: false, error: summaryAt };
  const historyAt = section(document, HISTORY_START, HISTORY_END);
  if (typeof historyAt === 'string') return { ok: false, error: historyAt };
  if (historyAt.start < summaryAt.end) return { ok: false, error: 'the history markers must come after the latest-run markers' };

  const previous = document.slice(summaryAt.start, summaryAt.end).trim();
  const history = document.slice(historyAt.start, historyAt.end).trim();
  // Only a run moves to history; the placeholder a document starts with does not.
  const moved = previous.startsWith(RUN_HEADING) ? [previous] : [];
  const nextHistory = [...moved, ...(history === '' ? [] : [history])].join('\n\n');
  return {
    ok: true,
    document:
      document.slice(0, summaryAt.start) +
      `\n${summary.trim()}\n` +
      document.slice(summaryAt.end, historyAt.start) +
      (nextHistory === '' ? '\n' : `\n${nextHistory}\n`) +
      document.slice(historyAt.end),
  };
}

/** Where the text between a start and an end marker is (exclusive of both), or why it cannot be found. */
function section(document: string, startMarker: string, endMarker: string): { start: number; end: number } | string {
  const first = document.indexOf(startMarker);
  if (first === -1) return `BENCHMARKS.md has no line ${startMarker}`;
  if (document.indexOf(startMarker, first + 1) !== -1) return `BENCHMARKS.md has ${startMarker} twice`;
  const end = document.indexOf(endMarker, first);
  if (end === -1) return `BENCHMARKS.md has no ${endMarker} after ${startMarker}`;
  return { start: first + startMarker.length, end };
}
