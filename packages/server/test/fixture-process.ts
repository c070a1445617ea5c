// Spawning the BUILT fixture upstream (dist/fixture-upstream/main.js) the way the gateway and
// the tests use it: stdio for a child of the client, HTTP as a separate process.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_MAIN = fileURLToPath(new URL('../dist/fixture-upstream/main.js', import.meta.url));

export interface FixtureToolEntry {
  readonly name: string;
  readonly [key: string]: unknown;
}

/** A scratch directory with helpers for tool files and count files; remove() cleans up. */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'mcpproxy-test-'));

  file(name: string): string {
    return join(this.dir, name);
  }

  writeTools(name: string, tools: readonly FixtureToolEntry[]): string {
    const path = this.file(name);
    writeFileSync(path, JSON.stringify(tools, null, 2));
    return path;
  }

  readCount(name: string): number {
    try {
      return Number(readFileSync(this.file(name), 'utf8'));
    } catch {
      return 0;
    }
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export function tool(name: string, extra: Record<string, unknown> = {}): FixtureToolEntry {
  return { name, description: `the ${name} tool`, inputSchema: { type: 'object', properties: {} }, ...extra };
}

export interface HttpFixture {
  readonly url: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the fixture over HTTP on a free port and waits for the URL it prints. */
export async function startHttpFixture(args: readonly string[]): Promise<HttpFixture> {
  const child = spawn(process.execPath, [FIXTURE_MAIN, '--http', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line !== undefined) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.on('exit', (code) => reject(new Error(`fixture exited (${code}): ${stderr}`)));
  });
  return { url, process: child, stop: () => stopProcess(child) };
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Polls until the check passes (or throws its last failure after the timeout). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 30_000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** Whether a process with this pid still runs (an upstream the gateway should have kept, or stopped). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
