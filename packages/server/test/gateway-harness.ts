// Shared by the gateway-level tests (gateway-*, mcp-gateway-*, conformance): real fixture upstream
// processes from dist, a real gateway (in-process, so tests can read the runtime's counters), temp
// data directories, and waiting on published state.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { validateAndResolve } from '../src/config/gateway-config.js';
import { startGateway, type GatewayOptions, type RunningGateway } from '../src/gateway.js';
import type { PublishedState } from '../src/state/gateway-runtime.js';

export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
export const FIXTURE_MAIN = join(PACKAGE_DIR, 'dist', 'fixture-upstream', 'main.js');
export const SERVE_MAIN = join(PACKAGE_DIR, 'dist', 'bin', 'serve.js');

export interface FixtureToolSpec {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
  readonly echo?: true;
  readonly error?: string;
  readonly result?: Record<string, unknown>;
}

export class TempDir {
  readonly path = mkdtempSync(join(tmpdir(), 'mcpproxy-c2-'));
  file(name: string, content: string): string {
    const path = join(this.path, name);
    writeFileSync(path, content);
    return path;
  }
  tools(name: string, tools: readonly FixtureToolSpec[]): string {
    return this.file(`${name}.tools.json`, JSON.stringify(tools));
  }
  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

/** A stdio fixture upstream entry for the config, counting what it receives in `countFile`. */
export function fixtureServer(name: string, toolsFile: string, extra: Record<string, unknown> = {}, countFile?: string): Record<string, unknown> {
  const args = [FIXTURE_MAIN, '--tools', toolsFile, '--name', name, ...(countFile === undefined ? [] : ['--count-file', countFile])];
  return { name, command: process.execPath, args, quarantined: false, ...extra };
}

export function readCount(file: string): number {
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim() || '0') : 0;
}

export interface TestGateway {
  readonly gateway: RunningGateway;
  readonly url: string;
  close(): Promise<void>;
}

/** Starts a real gateway on 127.0.0.1:0 over a fresh data directory inside `dir`. */
export async function startTestGateway(dir: TempDir, config: Record<string, unknown>, options: GatewayOptions = {}): Promise<TestGateway> {
  const value = { listen: '127.0.0.1:0', data_dir: join(dir.path, 'data'), api_key: 'test-admin-key-0123456789', reconnect_initial_delay_ms: 50, reconnect_max_delay_ms: 500, ...config };
  const resolved = validateAndResolve(value, join(dir.path, 'config.json'));
  if (!resolved.ok) throw new Error(resolved.error.message);
  const started = await startGateway(resolved.config, options);
  if (!started.ok) throw new Error(started.error.message);
  const gateway = started.gateway;
  return { gateway, url: gateway.url ?? '', close: () => gateway.close() };
}

/** Resolves with the first published state (current or later) that satisfies `predicate`. */
export function waitForState(gateway: RunningGateway, predicate: (state: PublishedState) => boolean, timeoutMs = 30_000): Promise<PublishedState> {
  const runtime = gateway.runtime;
  return new Promise((resolve, reject) => {
    if (predicate(runtime.current())) {
      resolve(runtime.current());
      return;
    }
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`state not reached within ${timeoutMs} ms (version ${runtime.current().snapshot.version})`));
    }, timeoutMs);
    const unsubscribe = runtime.subscribe((state) => {
      if (!predicate(state)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(state);
    });
  });
}

export function serverReady(name: string): (state: PublishedState) => boolean {
  return (state) => state.snapshot.servers.get(name)?.connection.state === 'ready';
}

export type Era = 'legacy' | 'modern';
export const ERAS: readonly Era[] = ['legacy', 'modern'];

/** An SDK client on the given revision, optionally with an agent token. */
export async function connectClient(url: string, era: Era, token?: string, capabilities: Record<string, unknown> = {}): Promise<Client> {
  const client = new Client(
    { name: 'c2-test', version: '1.0.0' },
    { capabilities, ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) },
  );
  const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** The text of a tool result's first content block. */
export function toolText(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]?.text ?? '';
}
