import type { BenchTarget } from './bench-target-line.js';
import { runProblems, type BenchmarkRun } from './run-benchmark.js';
import type { RunContext } from './run-context.js';

export interface Summary {
  /** The markdown: a heading naming the run, what it ran on, the one table, and a tally. */
  readonly markdown: string;
  readonly targets: number;
  readonly unmet: number;
  /** Benchmarks that crashed, overran, printed a bad line or no target; and target ids reported twice. */
  readonly failures: readonly string[];
}

/** The one table of a `pnpm bench` run: every target with this run's figure and whether it is met. */
export function summaryTable(context: RunContext, runs: readonly BenchmarkRun[]): Summary {
  const rows: string[] = [];
  const failures: string[] = [];
  const seen = new Map<string, string>();
  let targets = 0;
  let unmet = 0;
  for (const run of runs) {
    for (const target of run.targets) {
      const first = seen.get(target.id);
      if (first !== undefined) failures.push(`target "${target.id}" reported by both ${first} and ${run.benchmark.name}`);
      seen.set(target.id, run.benchmark.name);
      targets++;
      if (!target.met) unmet++;
      rows.push(targetRow(target));
    }
    const problems = runProblems(run);
    if (problems.length > 0) {
      failures.push(`${run.benchmark.name}: ${problems.join('; ')}`);
      rows.push(`| ${cell(run.benchmark.name)} | benchmark \`${cell(run.benchmark.script)}\` (${cell(run.benchmark.cwd)}) | ${cell(problems.join('; '))} | every target it measures | **FAILED** |`);
    }
  }
  const load = (values: readonly number[]) => values.map((v) => v.toFixed(2)).join(' / ');
  const markdown = [
    `### \`pnpm bench\` run of ${context.date} at commit \`${context.commit}\``,
    '',
    `Node ${context.node}, ${context.machine}; load average (1 / 5 / 15 min) ${load(context.loadBefore)} before, ${load(context.loadAfter)} after; ` +
      `the fixed work of \`tools/bench/src/machine-speed.ts\` ${context.speedBefore.toFixed(0)} ms before, ${context.speedAfter.toFixed(0)} ms after (more is a slower machine)` +
      (context.settings.length === 0 ? '.' : `; settings: ${context.settings.map((s) => `\`${s}\``).join(', ')}.`),
    '',
    '| target | measure | figure (this run) | target | met |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    `${targets} targets: ${targets - unmet} met, ${unmet} not met` + (failures.length === 0 ? '.' : `; ${failures.length} problem(s): ${failures.join('; ')}.`),
  ].join('\n');
  return { markdown, targets, unmet, failures };
}

function targetRow(target: BenchTarget): string {
  return `| ${cell(target.id)} | ${cell(target.measure)} | ${cell(target.figure)} | ${cell(target.target)} | ${target.met ? 'met' : '**NOT met**'} |`;
}

/** Text as one table cell: no line break, no column separator. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}
