// Runs the BUILT `mcpproxy` binary as a child process, against a gateway started with the same
// binary (`mcpproxy serve --config`) over fixture upstreams from @mcpproxy/server's dist.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI_BIN = fileURLToPath(new URL('../dist/bin/mcpproxy.js', import.meta.url));
const SERVER_DIR = dirname(createRequire(import.meta.url).resolve('@mcpproxy/server/package.json'));
export const FIXTURE_MAIN = join(SERVER_DIR, 'dist', 'fixture-upstream', 'main.js');
export const ADMIN_KEY = 'cli-test-admin-key-0123456789';

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly env?: Record<string, string | undefined>;
  readonly input?: string;
  readonly cwd?: string;
}

/** A scratch directory; HOME points here too, so no test reads or writes the real ~/.mcpproxy. */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'mcpproxy-cli-'));
  file(name: string, content: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, content);
    return path;
  }
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The environment every run starts from: no inherited MCPPROXY_* and no colour variables. */
export function baseEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('MCPPROXY_') || key === 'NO_COLOR' || key === 'FORCE_COLOR') continue;
    env[key] = value;
  }
  return { ...env, HOME: home };
}

export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env = Object.fromEntries(Object.entries({ ...baseEnv(options.cwd ?? tmpdir()), ...options.env }).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env, cwd: options.cwd ?? tmpdir(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** A tool entry of a fixture tools file. */
export interface FixtureTool {
  readonly name: string;
  readonly description?: string;
  readonly annotations?: Record<string, unknown>;
  readonly echo?: true;
}

/** A stdio fixture upstream for the config. */
export function fixtureServer(scratch: Scratch, name: string, tools: readonly FixtureTool[], extra: Record<string, unknown> = {}, fixtureArgs: readonly string[] = []): Record<string, unknown> {
  const toolsFile = scratch.file(`${name}.tools.json`, JSON.stringify(tools));
  return { name, command: process.execPath, args: [FIXTURE_MAIN, '--tools', toolsFile, '--name', name, ...fixtureArgs], quarantined: false, ...extra };
}

export interface ServedGateway {
  readonly origin: string;
  readonly mcpUrl: string;
  readonly configFile: string;
  readonly process: ChildProcess;
  /** The CLI's connection flags for this gateway (admin key). */
  readonly flags: readonly string[];
  output(): string;
  stop(): Promise<void>;
}

/**
 * `mcpproxy serve --config` on 127.0.0.1:0 with a data directory in the scratch dir; resolves
 * once it prints the address it serves on.
 */
export async function serveGateway(scratch: Scratch, config: Record<string, unknown>, name = 'gateway'): Promise<ServedGateway> {
  const configFile = scratch.file(`${name}.json`, JSON.stringify({ listen: '127.0.0.1:0', data_dir: join(scratch.dir, `${name}-data`), api_key: ADMIN_KEY, reconnect_initial_delay_ms: 50, reconnect_max_delay_ms: 500, ...config }));
  const child = spawn(process.execPath, [CLI_BIN, 'serve', '--config', configFile], { env: baseEnv(scratch.dir), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const mcpUrl = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      output += chunk.toString();
      const match = /serving MCP at (\S+)/.exec(stdout);
      if (match !== null) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`mcpproxy serve exited (${code}):\n${output}`)));
  });
  const origin = new URL(mcpUrl).origin;
  return {
    origin,
    mcpUrl,
    configFile,
    process: child,
    flags: ['--url', origin, '--api-key', ADMIN_KEY],
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls GET /api/v1/servers until the named server is in one of the states. */
export async function waitForServer(gateway: ServedGateway, name: string, states: readonly string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const response = await fetch(`${gateway.origin}/api/v1/servers`, { headers: { 'x-api-key': ADMIN_KEY } });
    const body = (await response.json()) as { servers: { name: string; state?: string }[] };
    last = body.servers.find((server) => server.name === name)?.state ?? 'absent';
    if (states.includes(last)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`server ${name} is ${last}, not ${states.join('|')}, after ${timeoutMs} ms`);
}

/** The one-line-error convention: exactly one line on stderr, prefixed, and nothing like a stack frame. */
export function isOneLineError(stderr: string): boolean {
  const lines = stderr.split('\n').filter((line) => line !== '');
  return lines.length === 1 && lines[0]!.startsWith('mcpproxy: ') && !/\n\s+at /.test(stderr);
}

/** A port nothing listens on right now (bound once, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
