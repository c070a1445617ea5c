import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from './cleanup-after-each.js';
import { FIXTURE_MAIN, eventually, startHttpFixture, tool } from './fixture-process.js';
import type { HttpFixture } from './fixture-process.js';

const { defer, scratch } = cleanupAfterEach();

/** A client whose sent messages are counted, to compare with the fixture's own count. */
function countingClient(transport: Transport): { client: Client; sent: () => number } {
  let sent = 0;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    sent += 1;
    return send(message, options);
  };
  const client = new Client({ name: 'fixture-test', version: '1.0.0' });
  defer(() => client.close());
  return { client, sent: () => sent };
}

async function stdioClient(args: readonly string[]) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [FIXTURE_MAIN, ...args], stderr: 'pipe' });
  const counted = countingClient(transport);
  await counted.client.connect(transport);
  return { ...counted, transport };
}

async function httpFixture(args: readonly string[]): Promise<HttpFixture> {
  const fixture = await startHttpFixture(args);
  defer(() => fixture.stop());
  return fixture;
}

const TOOLS = [
  tool('echo', {
    echo: true,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    annotations: { readOnlyHint: true, openWorldHint: false },
  }),
  tool('canned', {
    outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    result: { content: [{ type: 'text', text: '42' }], structuredContent: { n: 42 } },
  }),
  tool('broken', { error: 'it broke' }),
];

describe('fixture upstream over stdio', () => {
  it('lists the file\'s tools as given and answers calls: echo, canned, error, unknown', async () => {
    const s = scratch();
    const { client } = await stdioClient(['--tools', s.writeTools('tools.json', TOOLS)]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'canned', 'broken']);
    expect(tools[0]).toMatchObject({ description: 'the echo tool', annotations: { readOnlyHint: true, openWorldHint: false } });
    expect(tools[1]?.outputSchema).toEqual({ type: 'object', properties: { n: { type: 'number' } } });

    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toMatchObject({
      content: [{ type: 'text', text: '{"text":"hi"}' }],
      structuredContent: { text: 'hi' },
    });
    expect(await client.callTool({ name: 'canned' })).toMatchObject({ structuredContent: { n: 42 } });
    expect(await client.callTool({ name: 'broken' })).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it broke' }] });
    expect(await client.callTool({ name: 'nope' })).toMatchObject({ isError: true });
  });

  it('counts every message it receives in the count file', async () => {
    const s = scratch();
    const { client, sent } = await stdioClient(['--tools', s.writeTools('tools.json', TOOLS), '--count-file', s.file('count')]);
    await client.listTools();
    await client.callTool({ name: 'echo', arguments: {} });
    // initialize, notifications/initialized, tools/list, tools/call
    expect(sent()).toBe(4);
    await eventually(() => expect(s.readCount('count')).toBe(4));
  });

  it('paginates tools/list with --page-size', async () => {
    const s = scratch();
    const many = Array.from({ length: 5 }, (_, i) => tool(`t${i}`));
    const { client } = await stdioClient(['--tools', s.writeTools('tools.json', many), '--page-size', '2']);
    const first = await client.request({ method: 'tools/list', params: {} });
    expect(first.tools.map((t) => t.name)).toEqual(['t0', 't1']);
    expect(first.nextCursor).toBeDefined();
    const pages = [first.tools.length];
    let cursor = first.nextCursor;
    while (cursor !== undefined) {
      const page = await client.request({ method: 'tools/list', params: { cursor } });
      pages.push(page.tools.length);
      cursor = page.nextCursor;
    }
    expect(pages).toEqual([2, 2, 1]);
  });

  it('re-reads the tools file on SIGHUP and sends tools/list_changed (rug-pull)', async () => {
    const s = scratch();
    const file = s.writeTools('tools.json', [tool('a')]);
    const { client, transport } = await stdioClient(['--tools', file]);
    expect((await client.listTools()).tools.map((t) => t.description)).toEqual(['the a tool']);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    s.writeTools('tools.json', [tool('a', { description: 'now does something else' }), tool('b')]);
    process.kill(transport.pid!, 'SIGHUP');
    await changed;
    const after = await client.listTools(undefined, { cacheMode: 'bypass' });
    expect(after.tools.map((t) => [t.name, t.description])).toEqual([
      ['a', 'now does something else'],
      ['b', 'the b tool'],
    ]);
  });

  it('exits when the unlisted exit tool is called, and on SIGUSR2', async () => {
    const first = await stdioClient([]);
    expect((await first.client.listTools()).tools.map((t) => t.name)).not.toContain('exit');
    const closed = new Promise<void>((resolve) => (first.client.onclose = () => resolve()));
    expect(await first.client.callTool({ name: 'exit' })).toMatchObject({ content: [{ type: 'text', text: 'exiting' }] });
    await closed;

    const second = await stdioClient([]);
    const closedToo = new Promise<void>((resolve) => (second.client.onclose = () => resolve()));
    process.kill(second.transport.pid!, 'SIGUSR2');
    await closedToo;
  });

  it('holds its first answer back for --start-delay-ms', async () => {
    const started = Date.now();
    const { client } = await stdioClient(['--start-delay-ms', '600']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'get_greeting', 'delete_everything']);
  });

  it('SIGUSR1 ends --start-delay-ms at once', async () => {
    const s = scratch();
    const pidFile = s.file('fixture.pid');
    const connected = stdioClient(['--start-delay-ms', '3600000', '--pid-file', pidFile]);
    let answered = false;
    void connected.then(() => (answered = true), () => undefined);
    const pid = await eventually(() => Number(readFileSync(pidFile, 'utf8')) || Promise.reject(new Error('no pid yet')));
    // Positive control for the signal: the start is still held (an hour) once the process is up.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answered).toBe(false);
    process.kill(pid, 'SIGUSR1');
    const { client } = await connected;
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'get_greeting', 'delete_everything']);
  });

  // Node's own SIGUSR1 handler (it starts the inspector) holds the signal until the fixture installs
  // its own: a pid announced before that let a quick signal start the inspector and leave the start
  // held for the whole delay (seen as 2 of 20 quick signals on a loaded machine). Twelve starts at
  // once, each signalled the moment its pid file names it; any that opens the inspector fails at once.
  it('takes SIGUSR1 the moment its pid file names it (the handler is in place before the pid is announced)', async () => {
    const s = scratch();
    const quick = async (i: number): Promise<void> => {
      const pidFile = s.file(`quick-${i}.pid`);
      const transport = new StdioClientTransport({ command: process.execPath, args: [FIXTURE_MAIN, '--start-delay-ms', '3600000', '--pid-file', pidFile], stderr: 'pipe' });
      const { client } = countingClient(transport);
      const inspector = new Promise<never>((_, reject) => {
        let err = '';
        transport.stderr?.on('data', (chunk: Buffer) => {
          err += chunk.toString();
          if (err.includes('Debugger listening')) reject(new Error(`start ${i} took SIGUSR1 as Node's inspector signal: ${err}`));
        });
      });
      const connected = client.connect(transport);
      for (;;) {
        const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
        if (pid > 0) {
          process.kill(pid, 'SIGUSR1');
          break;
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      await Promise.race([connected, inspector]);
      expect((await client.listTools()).tools).toHaveLength(3);
    };
    await Promise.all(Array.from({ length: 12 }, (_, i) => quick(i)));
  });

  it('refuses bad options with exit code 2 and the usage', () => {
    const result = spawnSync(process.execPath, [FIXTURE_MAIN, '--page-size', 'x'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--page-size must be an integer');
    expect(result.stderr).toContain('usage:');
  });
});

describe('fixture upstream over Streamable HTTP', () => {
  it('answers 401 with WWW-Authenticate without the token, and serves both eras with it', async () => {
    const fixture = await httpFixture(['--require-token', 'sesame']);
    const denied = await fetch(fixture.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer /);

    const headers = { Authorization: 'Bearer sesame' };
    const legacyTransport = new StreamableHTTPClientTransport(new URL(fixture.url), { requestInit: { headers } });
    const legacy = countingClient(legacyTransport).client;
    await legacy.connect(legacyTransport);
    expect(legacy.getProtocolEra()).toBe('legacy');
    expect((await legacy.listTools()).tools.map((t) => t.name)).toContain('echo');

    const modern = new Client({ name: 'fixture-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    defer(() => modern.close());
    await modern.connect(new StreamableHTTPClientTransport(new URL(fixture.url), { requestInit: { headers } }));
    expect(modern.getProtocolEra()).toBe('modern');
    expect(await modern.callTool({ name: 'echo', arguments: { text: 'x' } })).toMatchObject({ structuredContent: { text: 'x' } });
  });

  it('counts HTTP messages and notifies a legacy session of a SIGHUP reload', async () => {
    const s = scratch();
    const file = s.writeTools('tools.json', [tool('a')]);
    const fixture = await httpFixture(['--tools', file, '--count-file', s.file('count'), '--streams-file', s.file('streams')]);
    const transport = new StreamableHTTPClientTransport(new URL(fixture.url));
    const { client, sent } = countingClient(transport);
    await client.connect(transport);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['a']);
    await eventually(() => expect(s.readCount('count')).toBe(sent()));

    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    s.writeTools('tools.json', [tool('a'), tool('b')]);
    // the notification travels on the session's GET stream, which the client opens after initialize
    await eventually(() => expect(s.readCount('streams')).toBe(1));
    fixture.process.kill('SIGHUP');
    await changed;
    expect((await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name)).toEqual(['a', 'b']);
  });
});
