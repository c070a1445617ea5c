/** One benchmark of the repository: a script that prints a BENCH-TARGET line per target it measures. */
export interface Benchmark {
  readonly name: string;
  /** The package directory it runs in, from the repository root. */
  readonly cwd: string;
  /** The script, from `cwd`, run by node with tsx. */
  readonly script: string;
  /** The outer bound of its run (each script also bounds itself with a watchdog). */
  readonly timeoutMinutes: number;
}

/**
 * Every benchmark `pnpm bench` runs, one at a time, in this order. Adding one is one line here (its
 * script prints its targets by the convention in bench-target-line.ts). Diagnostics that print no
 * target (bench/listing-instructions.ts, callgrind) are not listed: they are run by hand.
 */
export const BENCHMARKS: readonly Benchmark[] = [
  { name: 'evaluator', cwd: 'packages/evaluator', script: 'bench/evaluator.bench.ts', timeoutMinutes: 10 },
  { name: 'rider', cwd: 'packages/server', script: 'bench/rider-run.ts', timeoutMinutes: 12 },
  { name: 'listing eras', cwd: 'packages/server', script: 'bench/listing-eras.ts', timeoutMinutes: 12 },
  { name: 'gateway: raw listing, mcp-hub, RSS', cwd: 'packages/server', script: 'bench/run.ts', timeoutMinutes: 20 },
  { name: 'REST preflight', cwd: 'packages/server', script: 'bench/rest-preflight.ts', timeoutMinutes: 20 },
  { name: 'replicas on PostgreSQL', cwd: 'packages/server', script: 'bench/replicas-postgres.ts', timeoutMinutes: 15 },
];
