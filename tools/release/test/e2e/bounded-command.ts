// Every command the end-to-end test starts runs in its own process group with a time limit,
// so a hung npm, pnpm or nx (and whatever it started) is killed as a whole, on timeout or when
// the test ends early; `liveGroups` lets the test prove nothing is left running.
import { spawn } from 'node:child_process';
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

export function runBounded(command: string, args: readonly string[], options: BoundedOptions): Promise<BoundedResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const pgid = child.pid;
    if (pgid === undefined) {
      reject(new Error(`could not start ${command}`));
      return;
    }
    live.add(pgid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
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
      resolve({ status: code ?? 1, stdout, stderr, timedOut });
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
