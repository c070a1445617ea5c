import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Benchmark } from './benchmarks.js';
import { parseTargetLines, type BadTargetLine, type BenchTarget } from './bench-target-line.js';

export interface BenchmarkRun {
  readonly benchmark: Benchmark;
  readonly targets: readonly BenchTarget[];
  readonly bad: readonly BadTargetLine[];
  /** The exit code, or null when a signal ended it. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  /** The end of what it wrote to stderr, for the report of a failed run. */
  readonly stderrTail: string;
}

export interface RunOptions {
  /** The repository root. */
  readonly root: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Receives the benchmark's output as it comes (the caller shows it). */
  readonly echo?: (stream: 'stdout' | 'stderr', chunk: string) => void;
  /** The command that runs a script (default: this node with tsx). */
  readonly command?: readonly string[];
  /** Ends the run early (the caller was interrupted), the same way as a run over its bound. */
  readonly signal?: AbortSignal;
}

/** How much of a benchmark's stderr a run keeps (its end: where a crash says why). */
const STDERR_KEPT = 4000;

/** After SIGTERM to a benchmark that overran its bound, how long it gets to stop its children before SIGKILL. */
const STOP_GRACE_MS = 10_000;

/**
 * Runs one benchmark to its end and collects its targets. It runs in a process group of its own, so
 * that a run over its bound is ended with everything it started (gateways, upstreams, load
 * generators), and nothing is left running.
 */
export function runBenchmark(benchmark: Benchmark, options: RunOptions): Promise<BenchmarkRun> {
  const started = Date.now();
  const [command, ...args] = options.command ?? [process.execPath, '--import', 'tsx'];
  const child = spawn(command!, [...args, benchmark.script], {
    cwd: join(options.root, benchmark.cwd),
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    options.echo?.('stdout', chunk);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT);
    options.echo?.('stderr', chunk);
  });
  let timedOut = false;
  let killer: NodeJS.Timeout | undefined;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // The group is gone already.
    }
  };
  const stop = () => {
    signalGroup('SIGTERM');
    killer ??= setTimeout(() => signalGroup('SIGKILL'), STOP_GRACE_MS);
  };
  const bound = setTimeout(() => {
    timedOut = true;
    stop();
  }, benchmark.timeoutMinutes * 60_000);
  options.signal?.addEventListener('abort', stop, { once: true });
  return new Promise((resolve) => {
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(bound);
      options.signal?.removeEventListener('abort', stop);
      if (killer !== undefined) clearTimeout(killer);
      // Whatever it started and left behind goes with it.
      signalGroup('SIGKILL');
      const { targets, bad } = parseTargetLines(stdout);
      resolve({ benchmark, targets, bad, exitCode, signal, timedOut, durationMs: Date.now() - started, stderrTail: stderr.trim() });
    };
    child.on('error', (error) => {
      stderr += `\n${error.message}`;
      finish(null, null);
    });
    // A process it left behind holding its output open would hold `close` back: end the group then.
    child.on('exit', () => setTimeout(() => signalGroup('SIGKILL'), 5_000).unref());
    child.on('close', finish);
  });
}

/** Why a run does not count, one sentence each; empty when it ran to its end and reported its targets. */
export function runProblems(run: BenchmarkRun): string[] {
  const problems: string[] = [];
  if (run.timedOut) problems.push(`stopped after its bound of ${boundText(run.benchmark.timeoutMinutes)}`);
  else if (run.signal !== null) problems.push(`ended by ${run.signal}`);
  else if (run.exitCode !== 0) problems.push(`exited with code ${run.exitCode ?? 'unknown'}`);
  for (const bad of run.bad) problems.push(`bad BENCH-TARGET line ${bad.line}: ${bad.problem}`);
  if (run.targets.length === 0) problems.push('printed no BENCH-TARGET line');
  return problems;
}

function boundText(minutes: number): string {
  return minutes >= 1 ? `${minutes} min` : `${Math.round(minutes * 60)} s`;
}
