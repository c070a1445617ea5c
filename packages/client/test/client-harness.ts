// The real gateway for the client's tests, started as a black box: the server package's BUILT
// serve command and fixture upstream, reached by their workspace paths (the client does not
// depend on the server package; nx builds it before these tests run).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client';

const SERVER_DIST = fileURLToPath(new URL('../../server/dist/', import.meta.url));
export const SERVE_MAIN = join(SERVER_DIST, 'bin', 'serve.js');
export const FIXTURE_MAIN = join(SERVER_DIST, 'fixture-upstream', 'main.js');
export const ADMIN_KEY = 'client-test-admin-key-0123456789';

export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'mcpproxy-client-'));
  file(name: string, content: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, content);
    return path;
  }
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface FixtureTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
  readonly echo?: true;
}

export function fixtureServer(scratch: Scratch, name: string, tools: readonly FixtureTool[], extra: Record<string, unknown> = {}, args: readonly string[] = []): Record<string, unknown> {
  const file = scratch.file(`${name}.tools.json`, JSON.stringify(tools));
  return { name, command: process.execPath, args: [FIXTURE_MAIN, '--tools', file, '--name', name, ...args], quarantined: false, ...extra };
}

export interface Gateway {
  readonly origin: string;
  readonly mcpUrl: string;
  stop(): Promise<void>;
}

/** `serve --config` on 127.0.0.1:0; resolves with the address it prints. */
export async function startGateway(scratch: Scratch, config: Record<string, unknown>): Promise<Gateway> {
  const file = scratch.file('gateway.json', JSON.stringify({ listen: '127.0.0.1:0', data_dir: join(scratch.dir, 'data'), api_key: ADMIN_KEY, ...config }));
  const child = spawn(process.execPath, [SERVE_MAIN, '--config', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const mcpUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /serving MCP at (\S+)/.exec(output);
      if (match !== null) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${output}`)));
  });
  return { origin: new URL(mcpUrl).origin, mcpUrl, stop: () => stopChild(child) };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Polls the REST server list until the server is in one of the states. */
export async function waitForServer(gateway: Gateway, name: string, states: readonly string[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const body = (await (await fetch(`${gateway.origin}/api/v1/servers`, { headers: { 'x-api-key': ADMIN_KEY } })).json()) as { servers: { name: string; state?: string }[] };
    last = body.servers.find((server) => server.name === name)?.state ?? 'absent';
    if (states.includes(last)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} is ${last}, not ${states.join('|')}`);
}

export type Era = 'legacy' | 'modern';
export const ERAS: readonly Era[] = ['legacy', 'modern'];

/** An SDK client on the given revision (2025-11-25 initialize, or pinned 2026-07-28). */
export async function connect(url: string, era: Era, capabilities: ClientCapabilities = {}, token?: string): Promise<Client> {
  const client = new Client({ name: 'client-test', version: '1.0.0' }, { capabilities, ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}
