// The gateway as a new user runs it: the BUILT `mcpproxy` (packages/cli/dist) as a child process,
// `mcpproxy serve` with or without a configuration file, on 127.0.0.1 with a port the OS picks, its
// data directory and HOME in a scratch folder. The key it prints when it generates one is read from
// its output, as a person would read it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI_BIN = fileURLToPath(new URL('../../../cli/dist/bin/mcpproxy.js', import.meta.url));
export const FIXTURE_MAIN = fileURLToPath(new URL('../../../server/dist/fixture-upstream/main.js', import.meta.url));

export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'mcpproxy-ui-'));
  file(name: string, content: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, content);
    return path;
  }
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The environment of every child: HOME in the scratch folder, no MCPPROXY_* of the machine's. */
export function childEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !name.startsWith('MCPPROXY_')) env[name] = value;
  return { ...env, HOME: home, ...extra };
}

export interface ServedGateway {
  readonly origin: string;
  /** The admin key `mcpproxy serve` printed when it generated one. */
  readonly printedKey: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * `mcpproxy serve` (with `--config FILE` when a configuration is given, else the embedded default with
 * MCPPROXY_DATA_DIR and MCPPROXY_LISTEN); resolves once it says where it serves.
 */
export async function serveGateway(scratch: Scratch, config?: Record<string, unknown>): Promise<ServedGateway> {
  const args = [CLI_BIN, 'serve'];
  let env = childEnv(scratch.dir);
  if (config === undefined) env = { ...env, MCPPROXY_DATA_DIR: join(scratch.dir, 'data'), MCPPROXY_LISTEN: '127.0.0.1:0' };
  else args.push('--config', scratch.file('mcpproxy.json', JSON.stringify({ listen: '127.0.0.1:0', data_dir: join(scratch.dir, 'data'), ...config })));
  const child: ChildProcess = spawn(process.execPath, args, { env, cwd: scratch.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /serving MCP at (\S+)/.exec(output);
      if (match !== null) resolve(new URL(match[1]!).origin);
    });
    child.once('exit', (code) => reject(new Error(`mcpproxy serve exited (${code}):\n${output}`)));
  });
  const printedKey = /Generated an admin API key[^\n]*\n\s+(\S+)/.exec(output)?.[1];
  if (printedKey === undefined) throw new Error(`mcpproxy serve printed no key:\n${output}`);
  return {
    origin,
    printedKey,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The built CLI, as a CI job would run it. */
export function runCli(scratch: Scratch, args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env: childEnv(scratch.dir), cwd: scratch.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A REST call with the admin key (or another credential), answering status and parsed body. */
export async function rest(origin: string, auth: { apiKey: string } | { bearer: string }, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const headers: Record<string, string> = 'apiKey' in auth ? { 'x-api-key': auth.apiKey } : { authorization: `Bearer ${auth.bearer}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${origin}/api/v1${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Polls until the check passes, or throws its last failure at the deadline. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
