// The aggregator against real child processes standing in for benchmarks (it never runs the
// repository's benchmarks here): targets collected, and a crash, a run that reports nothing, a
// malformed line or a run over its bound each turn into a loud FAILED row, with nothing left running.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Benchmark } from '../src/benchmarks.js';
import { runBenchmark, runProblems } from '../src/run-benchmark.js';
import { summaryTable } from '../src/summary-table.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE = [process.execPath];
const fixture = (name: string, script: string, timeoutMinutes = 1): Benchmark => ({ name, cwd: 'test/fixtures', script, timeoutMinutes });
const context = { date: '2026-12-03 08:00 UTC', commit: 'abc1234', node: 'v20.20.2', machine: '2 cores (test)', loadBefore: [0.5, 0.4, 0.3], loadAfter: [1, 0.5, 0.3], speedBefore: 44.6, speedAfter: 61.2, settings: ['BENCH_ROUNDS=250'] };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('running benchmarks', () => {
  it('collects the targets of a benchmark that ends well, and shows its output as it comes', async () => {
    const echoed: string[] = [];
    const run = await runBenchmark(fixture('two', 'reports-two.mjs'), { root: ROOT, command: NODE, echo: (_stream, chunk) => echoed.push(chunk) });
    expect(runProblems(run)).toEqual([]);
    expect(run.targets.map((t) => [t.id, t.met])).toEqual([
      ['alpha', true],
      ['beta', false],
    ]);
    expect(echoed.join('')).toContain('# some table the benchmark prints for people');
  });

  it('a crash, no target, and malformed lines are problems of the run, named', async () => {
    const crashed = await runBenchmark(fixture('crash', 'crashes.mjs'), { root: ROOT, command: NODE });
    expect(crashed.targets.map((t) => t.id)).toEqual(['gamma']);
    expect(runProblems(crashed)).toEqual(['exited with code 1']);
    expect(crashed.stderrTail).toContain('the gateway did not start');

    const silent = await runBenchmark(fixture('silent', 'reports-nothing.mjs'), { root: ROOT, command: NODE });
    expect(runProblems(silent)).toEqual(['printed no BENCH-TARGET line']);

    const malformed = await runBenchmark(fixture('malformed', 'malformed.mjs'), { root: ROOT, command: NODE });
    expect(runProblems(malformed)).toEqual(['bad BENCH-TARGET line 1: "met" must be true or false', expect.stringMatching(/^bad BENCH-TARGET line 2: not JSON/)]);
  });

  it('a run over its bound is stopped with everything it started', async () => {
    let childPid: number | undefined;
    const run = await runBenchmark(fixture('hangs', 'hangs.mjs', 2 / 60), {
      root: ROOT,
      command: NODE,
      echo: (_stream, chunk) => {
        const match = /child (\d+)/.exec(chunk);
        if (match !== null) childPid = Number(match[1]);
      },
    });
    expect(run.timedOut).toBe(true);
    expect(runProblems(run)).toEqual(['stopped after its bound of 2 s', 'printed no BENCH-TARGET line']);
    expect(childPid).toBeDefined();
    await expect.poll(() => alive(childPid!), { timeout: 15_000 }).toBe(false);
  });

  it('the table lists every target with its figure, and a FAILED row for each benchmark that did not count', async () => {
    const runs = [];
    for (const [name, script] of [
      ['two', 'reports-two.mjs'],
      ['crash', 'crashes.mjs'],
      ['silent', 'reports-nothing.mjs'],
      ['two again', 'reports-two.mjs'],
    ] as const) {
      runs.push(await runBenchmark(fixture(name, script), { root: ROOT, command: NODE }));
    }
    const summary = summaryTable(context, runs);
    expect(summary.markdown).toContain('### `pnpm bench` run of 2026-12-03 08:00 UTC at commit `abc1234`');
    expect(summary.markdown).toContain(
      'load average (1 / 5 / 15 min) 0.50 / 0.40 / 0.30 before, 1.00 / 0.50 / 0.30 after; the fixed work of `tools/bench/src/machine-speed.ts` 45 ms before, 61 ms after (more is a slower machine); settings: `BENCH_ROUNDS=250`.',
    );
    expect(summary.markdown).toContain('| alpha | alpha \\| with a pipe | 1.05x (1.40 ms vs 1.33 ms median) | <= 1.2x | met |');
    expect(summary.markdown).toContain('| beta | beta | 0.31x (24,405 vs 78,000 req/s) | >= 0.35x | **NOT met** |');
    expect(summary.markdown).toContain('| gamma | gamma | 2 ms | < 5 ms | met |');
    expect(summary.markdown).toContain('| crash | benchmark `crashes.mjs` (test/fixtures) | exited with code 1 | every target it measures | **FAILED** |');
    expect(summary.markdown).toContain('| silent | benchmark `reports-nothing.mjs` (test/fixtures) | printed no BENCH-TARGET line | every target it measures | **FAILED** |');
    expect(summary.targets).toBe(5);
    expect(summary.unmet).toBe(2);
    expect(summary.failures).toEqual([
      'crash: exited with code 1',
      'silent: printed no BENCH-TARGET line',
      'target "alpha" reported by both two and two again',
      'target "beta" reported by both two and two again',
    ]);
  });

  it('every registered benchmark script exists', async () => {
    const { BENCHMARKS } = await import('../src/benchmarks.js');
    const repository = fileURLToPath(new URL('../../..', import.meta.url));
    for (const b of BENCHMARKS) expect({ name: b.name, exists: existsSync(`${repository}/${b.cwd}/${b.script}`) }).toEqual({ name: b.name, exists: true });
  });
});
