/**
 * One target a benchmark measured, reported by the repository's bench convention: a line
 * `BENCH-TARGET {json}` on stdout, which `pnpm bench` collects into its one table. The line is the
 * contract (tools/bench/src/bench-target-line.ts reads and checks it); each package's benchmarks
 * write it with their own copy of this small helper, since a package's sources cannot import
 * another's. `figure` gives the absolute figures beside any ratio.
 */
export interface BenchTarget {
  /** Stable across runs: the table's key (e.g. "rider-2025"). */
  readonly id: string;
  /** What was measured, with what setup. */
  readonly measure: string;
  readonly figure: string;
  readonly target: string;
  readonly met: boolean;
}

export function reportTarget(target: BenchTarget): void {
  process.stdout.write(`BENCH-TARGET ${JSON.stringify(target)}\n`);
}
