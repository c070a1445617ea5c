export interface LatencySummary {
  readonly n: number;
  readonly median: number;
  readonly p99: number;
  readonly mean: number;
}

/** Nearest-rank percentiles over milliseconds. */
export function summarise(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
  const mean = sorted.reduce((sum, x) => sum + x, 0) / Math.max(1, sorted.length);
  return { n: sorted.length, median: rank(50), p99: rank(99), mean };
}

export function formatMs(ms: number): string {
  return `${ms.toFixed(2)} ms`;
}
