import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { machineSpeedMs } from './machine-speed.js';

/** Where and when a `pnpm bench` run happened: what its table says about the run itself. */
export interface RunContext {
  /** ISO 8601, UTC, to the minute. */
  readonly date: string;
  /** The commit measured (short), with a note when the working tree differs from it. */
  readonly commit: string;
  readonly node: string;
  readonly machine: string;
  /** 1-, 5- and 15-minute load averages. */
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
  /** The fixed work's time in ms before and after the run (machine-speed.ts): more is a slower machine. */
  readonly speedBefore: number;
  readonly speedAfter: number;
  /** Environment settings that change what the benchmarks do (BENCH_*), as given. */
  readonly settings: readonly string[];
}

/** What a run's context reads from outside the repository; each defaults to the real one. */
export interface ContextSources {
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: Date;
  /** The machine-speed reading (machine-speed.ts). */
  readonly speed?: () => number;
}

/**
 * @param output the file the run writes its table into (relative to `root`): a change there alone does not
 *   change what is measured, so it does not mark the commit (a second `--write` would always be "uncommitted").
 */
export function startContext(root: string, output: string, sources: ContextSources = {}): Omit<RunContext, 'loadAfter' | 'speedAfter'> {
  const { env = process.env, now = new Date(), speed = machineSpeedMs } = sources;
  return {
    date: `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    commit: commitOf(root, output),
    node: process.version,
    machine: `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown cpu'})`,
    loadBefore: loadavg(),
    speedBefore: speed(),
    settings: Object.keys(env)
      .filter((key) => key.startsWith('BENCH_') || key === 'RIDER_TYPOS')
      .sort()
      .map((key) => `${key}=${env[key] ?? ''}`),
  };
}

export function finishContext(started: Omit<RunContext, 'loadAfter' | 'speedAfter'>, speed: () => number = machineSpeedMs): RunContext {
  return { ...started, loadAfter: loadavg(), speedAfter: speed() };
}

function commitOf(root: string, output: string): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const status = ['status', '--porcelain', '--untracked-files=no', '--', '.', `:(exclude)${output}`];
    const dirty = execFileSync('git', status, { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
