// A second `serve --stdio` on a data directory another gateway holds (desktop clients start one per
// window): it relays its client's session to the running gateway over the local socket, so both
// clients see the same servers and state; it exits 0 when its client closes, and 1 naming the
// gateway when that one stops first. Without a socket to relay to (a gateway that records none), or
// with a key the running gateway refuses, it refuses with one line naming the running gateway.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { ERAS, FIXTURE_MAIN, SERVE_MAIN, TempDir, toolText } from './gateway-harness.js';
import { ChildStdioTransport } from './child-stdio-transport.js';
import { eventually } from './fixture-process.js';

let dir: TempDir;
beforeEach(() => {
  dir = new TempDir();
});
afterEach(() => dir.remove());

interface Held {
  readonly client: Client;
  stderr(): string;
  /** The gateway process's exit code. */
  readonly exited: Promise<number | null>;
}

/** An SDK client holding `serve --stdio --config FILE` open, over a process the test spawned (its exit code and stderr stay visible). */
async function hold(configFile: string, modern = false): Promise<Held> {
  const child = spawn(process.execPath, [SERVE_MAIN, '--stdio', '--config', configFile], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const client = new Client({ name: 'relay-test', version: '1.0.0' }, modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(new ChildStdioTransport(child));
  return { client, stderr: () => stderr, exited };
}

function config(name: string, extra: Record<string, unknown> = {}): string {
  return dir.file(
    `${name}.json`,
    JSON.stringify({
      data_dir: join(dir.path, 'data'),
      api_key: 'a-configured-admin-key-123',
      first_listing_wait_ms: 60_000,
      servers: [{ name: 'demo', command: process.execPath, args: [FIXTURE_MAIN, '--demo'], quarantined: false }],
      ...extra,
    }),
  );
}

describe.each(ERAS)('a second serve --stdio on the same data directory, %s', (era) => {
  it('relays its client to the running gateway, and exits 1 when that gateway stops', async () => {
    const first = await hold(config('first'));
    const names = async (client: Client) => (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name);
    try {
      expect(await names(first.client)).toContain('demo:echo');
      // Its own file names another server: the running gateway's configuration is what it serves.
      const second = await hold(config('second', { servers: [{ name: 'other', command: process.execPath, args: [FIXTURE_MAIN, '--demo'] }] }), era === 'modern');
      try {
        expect(await names(second.client)).toEqual(await names(first.client));
        expect(toolText(await second.client.callTool({ name: 'demo:echo', arguments: { via: 'relay' } }))).toContain('relay');
        expect(second.stderr()).toMatch(/data directory .* is in use by the gateway pid \d+: relaying this stdio session to it over .*gateway\.sock/);
        // A relayed client that closes its side ends its relaying process cleanly; the others go on.
        const third = await hold(config('third'), era === 'modern');
        expect(await names(third.client)).toContain('demo:echo');
        await third.client.close();
        expect(await third.exited).toBe(0);
        expect(await names(second.client)).toContain('demo:echo');
      } finally {
        // The first gateway stops under the relayed session: the relaying process says so and exits 1.
        await first.client.close();
        expect(await second.exited).toBe(1);
        expect(second.stderr()).toMatch(/the gateway pid \d+ that this stdio session was relayed to has stopped/);
        await second.client.close();
      }
    } finally {
      await first.client.close();
    }
  });
});

describe('a second serve --stdio that cannot relay', () => {
  function refusal(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [SERVE_MAIN, '--stdio', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
  }

  it('refuses at once, naming the running gateway, when it has no socket', async () => {
    // A gateway of another version: it holds the lock and recorded its HTTP address, but no socket.
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      const dataDir = join(dir.path, 'data');
      mkdirSync(dataDir, { mode: 0o700 });
      writeFileSync(join(dataDir, 'gateway.lock'), `${holder.pid}\n`);
      writeFileSync(join(dataDir, 'gateway.json'), JSON.stringify({ pid: holder.pid, origin: 'http://127.0.0.1:45678' }));
      const run = await refusal(['--config', config('nosocket')]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        `mcpproxy: data directory ${dataDir} is in use by another gateway (pid ${holder.pid}, serving http://127.0.0.1:45678), which has no local socket to relay this stdio session to; stop that gateway or start this one with another data_dir`,
      ]);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('refuses, naming the running gateway, when it does not take this process\'s admin key', async () => {
    const first = await hold(config('first'));
    try {
      const run = await refusal(['--config', config('wrong-key', { api_key: 'another-admin-key-0123456789' })]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/is in use by another gateway \(pid \d+\) and relaying to it failed: .*gateway\.sock refused the relay \(HTTP 401\): The X-API-Key is not the admin API key/);
    } finally {
      await first.client.close();
    }
  });

  it('starts a gateway of its own when the one holding the data directory lets it go before it could be reached', async () => {
    // A gateway that is stopping: it holds the lock and has already removed its record.
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const dataDir = join(dir.path, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    writeFileSync(join(dataDir, 'gateway.lock'), `${holder.pid}\n`);
    const child = spawn(process.execPath, [SERVE_MAIN, '--stdio', '--config', config('restarted')], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const client = new Client({ name: 'relay-test', version: '1.0.0' });
    const connected = client.connect(new ChildStdioTransport(child));
    try {
      await eventually(() => expect(stderr).toContain(`is held by pid ${holder.pid}, which has not recorded where it can be reached yet: waiting`), 30_000, 50);
      holder.kill('SIGKILL');
      await connected;
      expect((await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name)).toContain('demo:echo');
      expect(stderr).toContain('gateway serving MCP on stdio');
    } finally {
      holder.kill('SIGKILL');
      await client.close();
    }
    expect(await exited).toBe(0);
  });
});
