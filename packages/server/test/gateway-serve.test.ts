// The start command as a real process (dist/bin/serve.js): HTTP serving and clean shutdown on
// SIGTERM, one-line failures for bad configuration and a locked data directory, the embedded
// default (API key printed once), and MCP over stdio.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { FIXTURE_MAIN, SERVE_MAIN, TempDir } from './gateway-harness.js';

interface Run {
  readonly child: ChildProcess;
  stdout: string;
  stderr: string;
  readonly exited: Promise<number | string | null>;
}

function serve(args: string[], env: Record<string, string> = {}): Run {
  // The caller's own MCPPROXY_* settings (a developer's shell) must not steer these runs.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MCPPROXY_')));
  const child = spawn(process.execPath, [SERVE_MAIN, ...args], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = {
    child,
    stdout: '',
    stderr: '',
    // The exit code, or the signal that killed it (a clean shutdown exits 0 by itself).
    exited: new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal))),
  };
  child.stdout!.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
  return run;
}

async function servingUrl(run: Run): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const url = /serving MCP at (\S+)/.exec(run.stdout)?.[1];
    if (url !== undefined) return url;
    if (run.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`serve did not start (exit ${run.child.exitCode}):\n${run.stdout}${run.stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function configFile(dir: TempDir, name: string, config: Record<string, unknown>): string {
  return dir.file(name, JSON.stringify(config));
}

const demoServer = () => ({ name: 'demo', command: process.execPath, args: [FIXTURE_MAIN, '--demo'], quarantined: false });

// Each test starts real processes (several for some); a loaded machine needs more than the default.
const PROCESS_TEST_TIMEOUT = 90_000;

describe('serve', () => {
  let dir: TempDir;
  beforeAll(() => {
    dir = new TempDir();
  });
  afterAll(() => dir.remove());

  it('serves on the configured address and shuts down cleanly on SIGTERM', async () => {
    const config = configFile(dir, 'ok.json', { listen: '127.0.0.1:0', data_dir: join(dir.path, 'ok-data'), api_key: 'a-configured-admin-key-123', servers: [demoServer()] });
    const run = serve(['--config', config]);
    const url = await servingUrl(run);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const health = await fetch(new URL('/healthz', url));
    expect(await health.json()).toEqual({ status: 'ok' });

    // A second gateway on the same data directory is refused with one clear line.
    const second = serve(['--config', config]);
    expect(await second.exited).toBe(1);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.stderr).toMatch(/^mcpproxy: .*(lock|in use|another)/i);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    // The lock went with it: the same data directory starts again.
    const again = serve(['--config', config]);
    await servingUrl(again);
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);
  }, PROCESS_TEST_TIMEOUT);

  it('stops on bad configuration with one line naming the file, the path and the problem, no stack trace', async () => {
    const badValue = configFile(dir, 'bad-value.json', { listen: '127.0.0.1:0', page_size: 'many', servers: [] });
    const run = serve(['--config', badValue]);
    expect(await run.exited).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(badValue);
    expect(lines[0]).toContain('/page_size');
    expect(run.stderr).not.toMatch(/\n\s+at /);

    const badJson = dir.file('bad-json.json', '{ "servers": [ }');
    const syntax = serve(['--config', badJson]);
    expect(await syntax.exited).toBe(1);
    expect(syntax.stderr.trim().split('\n')).toHaveLength(1);
    expect(syntax.stderr).toContain(badJson);

    const missing = serve(['--config', join(dir.path, 'nope.json')]);
    expect(await missing.exited).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);

    const usage = serve(['--bogus']);
    expect(await usage.exited).toBe(1);
  }, PROCESS_TEST_TIMEOUT);

  it('stops with one line on a data_dir it cannot create, instead of spinning in mkdir for ever', async () => {
    // The old code hung at 100% CPU inside mkdirSync({ recursive: true }) and ignored SIGTERM: SIGKILL is the backstop.
    const aFile = dir.file('plain-file', 'not a directory');
    const cases: [Record<string, unknown>, string][] = [
      [{ data_dir: '/proc/nope' }, 'cannot create data directory /proc/nope: /proc/nope cannot be created in /proc'],
      [{ data_dir: '/proc/nope/deeper', api_key: 'test-admin-key-0123456789' }, 'cannot create data directory /proc/nope/deeper: /proc/nope cannot be created in /proc'],
      [{ data_dir: join(aFile, 'data'), api_key: 'test-admin-key-0123456789' }, `cannot create data directory ${join(aFile, 'data')}: ${aFile} exists and is not a directory`],
    ];
    for (const [extra, expected] of cases) {
      const config = configFile(dir, 'unusable-data-dir.json', { listen: '127.0.0.1:0', servers: [], ...extra });
      const run = serve(['--config', config]);
      const backstop = setTimeout(() => run.child.kill('SIGKILL'), 30_000);
      const exit = await run.exited;
      clearTimeout(backstop);
      expect(exit, run.stderr).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(expected);
    }
  }, PROCESS_TEST_TIMEOUT);

  it('serves MCP over stdio (--stdio) on both revisions', async () => {
    const config = configFile(dir, 'stdio.json', { data_dir: join(dir.path, 'stdio-data'), api_key: 'a-configured-admin-key-123', servers: [demoServer()] });
    for (const modern of [false, true]) {
      const client = new Client({ name: 'c2-test', version: '1.0.0' }, modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVE_MAIN, '--stdio', '--config', config], stderr: 'ignore' }));
      try {
        await expect.poll(async () => (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name), { timeout: 15_000 }).toContain('demo:echo');
        const result = await client.callTool({ name: 'demo:echo', arguments: { text: 'over stdio' } });
        expect(result.isError).toBeFalsy();
        expect(JSON.stringify(result.content)).toContain('over stdio');
      } finally {
        await client.close();
      }
    }
  }, PROCESS_TEST_TIMEOUT);

  it('starts on the embedded default without a file and prints a generated API key once', async () => {
    // --listen: the embedded default on any free port (config-embedded-default.test.ts pins 127.0.0.1:8080 as its address).
    const dataDir = join(dir.path, 'embedded-data');
    const env = { MCPPROXY_DATA_DIR: dataDir };
    const first = serve(['--listen', '127.0.0.1:0'], env);
    const url = await servingUrl(first);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(first.stdout).toMatch(/API key/i);
    const key = /^\s+(\S{16,})\s*$/m.exec(first.stdout)?.[1];
    expect(key).toBeDefined();
    // While it runs, the data directory says where: the CLI finds a gateway on any port there.
    expect(JSON.parse(readFileSync(join(dataDir, 'gateway.json'), 'utf8'))).toEqual({ pid: first.child.pid, origin: new URL(url).origin, socket: join(dataDir, 'gateway.sock') });
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, 'gateway.json'))).toBe(false);

    // MCPPROXY_LISTEN does what --listen does; the key is not printed again.
    const second = serve([], { ...env, MCPPROXY_LISTEN: '127.0.0.1:0' });
    expect(await servingUrl(second)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(second.stdout).not.toContain(key!);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, PROCESS_TEST_TIMEOUT);

  it('blames a bad --listen or MCPPROXY_LISTEN on where it came from, in one line', async () => {
    const env = { MCPPROXY_DATA_DIR: join(dir.path, 'listen-data') };
    const flag = serve(['--listen', 'nowhere'], env);
    expect(await flag.exited).toBe(1);
    expect(flag.stderr).toBe('mcpproxy: --listen: expected "host:port", got "nowhere"\n');
    const fromEnv = serve([], { ...env, MCPPROXY_LISTEN: '127.0.0.1:99999' });
    expect(await fromEnv.exited).toBe(1);
    expect(fromEnv.stderr).toBe('mcpproxy: MCPPROXY_LISTEN: port out of range in "127.0.0.1:99999"\n');
  }, PROCESS_TEST_TIMEOUT);
});
