// Every command the end-to-end test starts runs in its own process group with a time limit,
// so a hung npm, pnpm or nx (and whatever it started) is killed as a whole, on timeout or when
// the test ends early; `liveGroups` lets the test prove nothing is left running.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { CommandResult } from '../../src/pnpm-command.js';

export interface BoundedOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
}

export interface BoundedResult extends CommandResult {
  readonly timedOut: boolean;
}

const live = new Set<number>();

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

interface GroupChild {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly pgid: number;
  /** Both streams so far. */
  readonly output: { stdout: string; stderr: string };
}

/** Starts a process as the leader of a group of its own, counted as live until its caller says otherwise. */
function spawnGroup(command: string, args: readonly string[], options: BoundedOptions): GroupChild {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const pgid = child.pid;
  if (pgid === undefined) throw new Error(`could not start ${command}`);
  live.add(pgid);
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  return { child, pgid, output };
}

export function runBounded(command: string, args: readonly string[], options: BoundedOptions): Promise<BoundedResult> {
  return new Promise((resolve, reject) => {
    const { child, pgid, output } = spawnGroup(command, args, options);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(pgid);
    }, options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      live.delete(pgid);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      // Grandchildren that outlived their parent (a daemon, a stray server) go with the group.
      killGroup(pgid);
      live.delete(pgid);
      resolve({ status: code ?? 1, stdout: output.stdout, stderr: output.stderr, timedOut });
    });
  });
}

/** Kills every group still running; returns how many there were. */
export function killLiveGroups(): number {
  const count = live.size;
  for (const pgid of live) killGroup(pgid);
  live.clear();
  return count;
}

export interface RunningService {
  readonly pid: number;
  /** What the process printed on stdout and stderr so far. */
  output(): string;
  /** Kills the whole group and waits until the process has exited. */
  stop(): Promise<void>;
}

/**
 * A long-running process (a gateway, a stand-in server) in its own group, counted with the
 * commands: it is ready when `ready` matches its stdout, and killed with its group on stop, on
 * timeout while starting, or by `killLiveGroups` when the test ends early.
 */
export function startService(
  command: string,
  args: readonly string[],
  options: BoundedOptions & { readonly ready: RegExp },
): Promise<{ service: RunningService; match: RegExpMatchArray }> {
  return new Promise((resolve, reject) => {
    const { child, pgid, output } = spawnGroup(command, args, options);
    let started = false;
    const exited = new Promise<void>((done) => child.once('close', () => done()));
    const service: RunningService = {
      pid: pgid,
      output: () => `${output.stdout}\n${output.stderr}`,
      stop: async () => {
        killGroup(pgid);
        await exited;
        // The leader is gone; its children may still be exiting (killed, not yet reaped).
        for (let i = 0; i < 100 && groupAlive(pgid); i += 1) {
          killGroup(pgid);
          await new Promise((done) => setTimeout(done, 50));
        }
        live.delete(pgid);
      },
    };
    const fail = (why: string): void => {
      if (started) return;
      started = true;
      clearTimeout(timer);
      void service.stop().then(() => reject(new Error(`${command} ${args.join(' ')}: ${why}\n${service.output()}`)));
    };
    const timer = setTimeout(() => fail(`not ready within ${options.timeoutMs} ms`), options.timeoutMs);
    // After spawnGroup's own listener: output.stdout already holds the chunk.
    child.stdout.on('data', () => {
      const match = output.stdout.match(options.ready);
      if (match === null || started) return;
      started = true;
      clearTimeout(timer);
      resolve({ service, match });
    });
    child.once('error', (error) => fail(error.message));
    child.once('close', (code) => fail(`exited ${code} before it was ready`));
  });
}
