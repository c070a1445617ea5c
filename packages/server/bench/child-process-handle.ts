import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A child process whose output is kept, with a way to wait for a line and to stop it for sure. */
export class ChildHandle {
  readonly process: ChildProcess;
  private output = '';
  private readonly exited: Promise<void>;

  constructor(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
    this.process = spawn(command, [...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.process.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.process.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => this.process.on('exit', () => resolve()));
  }

  async waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.output);
      if (match !== null) return match;
      if (this.process.exitCode !== null) throw new Error(`process exited before ${pattern}:\n${this.output.slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${this.output.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** The end of what it has written (stdout and stderr), for the report of a failure. */
  outputTail(chars = 2000): string {
    return this.output.slice(-chars);
  }

  /** Resident set size of this process alone (not its children), from /proc. */
  rssBytes(): number {
    return this.statusBytes('VmRSS');
  }

  /** The highest resident set size this process has had so far (VmHWM). */
  peakRssBytes(): number {
    return this.statusBytes('VmHWM');
  }

  private statusBytes(field: 'VmRSS' | 'VmHWM'): number {
    const status = readFileSync(`/proc/${this.process.pid}/status`, 'utf8');
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1];
    if (kb === undefined) throw new Error(`no ${field} in /proc/${this.process.pid}/status`);
    return Number(kb) * 1024;
  }

  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}
