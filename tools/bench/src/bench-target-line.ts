/**
 * The bench convention: a benchmark reports each target it measured as one line on stdout,
 * `BENCH-TARGET {"id":…,"measure":…,"figure":…,"target":…,"met":…}`, `figure` giving the absolute
 * figures beside any ratio. This module reads such lines out of a benchmark's output.
 */
export const BENCH_TARGET_PREFIX = 'BENCH-TARGET ';

export interface BenchTarget {
  /** Stable across runs (e.g. "rider-2025"). */
  readonly id: string;
  /** What was measured, with what setup. */
  readonly measure: string;
  /** This run's figure, absolute figures beside any ratio. */
  readonly figure: string;
  readonly target: string;
  readonly met: boolean;
}

/** A line that starts like a target report but is not one: where, and what is wrong with it. */
export interface BadTargetLine {
  readonly line: number;
  readonly text: string;
  readonly problem: string;
}

export interface TargetLines {
  readonly targets: readonly BenchTarget[];
  readonly bad: readonly BadTargetLine[];
}

const FIELDS = ['id', 'measure', 'figure', 'target'] as const;

/** Every BENCH-TARGET line of `output`, parsed; the malformed ones named with their line and fault. */
export function parseTargetLines(output: string): TargetLines {
  const targets: BenchTarget[] = [];
  const bad: BadTargetLine[] = [];
  output.split(/\r?\n/).forEach((text, index) => {
    if (!text.startsWith(BENCH_TARGET_PREFIX)) return;
    const parsed = parseTarget(text.slice(BENCH_TARGET_PREFIX.length));
    if (typeof parsed === 'string') bad.push({ line: index + 1, text, problem: parsed });
    else targets.push(parsed);
  });
  return { targets, bad };
}

function parseTarget(json: string): BenchTarget | string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return `not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const record = value as Record<string, unknown>;
  for (const field of FIELDS) {
    if (!Object.hasOwn(record, field) || typeof record[field] !== 'string' || (record[field] as string).trim() === '') return `"${field}" must be a non-empty string`;
  }
  if (!Object.hasOwn(record, 'met') || typeof record['met'] !== 'boolean') return '"met" must be true or false';
  const extra = Object.keys(record).filter((key) => !(FIELDS as readonly string[]).includes(key) && key !== 'met');
  if (extra.length > 0) return `unknown member(s): ${extra.join(', ')}`;
  return { id: record['id'] as string, measure: record['measure'] as string, figure: record['figure'] as string, target: record['target'] as string, met: record['met'] as boolean };
}
