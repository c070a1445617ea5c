import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from './cleanup-after-each.js';
import { RuntimeError } from '../src/state/runtime-error.js';
import { reconnectDelay } from '../src/upstream/reconnect-backoff.js';
import { toolHash } from '../src/upstream/tool-hash.js';
import { UpstreamConnection } from '../src/upstream/upstream-connection.js';
import type { UpstreamConnectionOptions, UpstreamStatus } from '../src/upstream/upstream-connection.js';
import type { UpstreamSpec } from '../src/upstream/upstream-spec.js';
import { FIXTURE_MAIN, eventually, startHttpFixture, tool } from './fixture-process.js';

const { defer, scratch } = cleanupAfterEach();

interface Observed {
  readonly connection: UpstreamConnection;
  /** Every status the connection reported, with when. */
  readonly history: { at: number; status: UpstreamStatus }[];
  sent(): number;
  /** When each message was sent to the upstream. */
  readonly sentAt: number[];
  states(): (string | undefined)[];
  until(check: (status: UpstreamStatus) => boolean, timeoutMs?: number): Promise<UpstreamStatus>;
}

function observe(spec: UpstreamSpec, overrides: Partial<UpstreamConnectionOptions> = {}): Observed {
  const history: { at: number; status: UpstreamStatus }[] = [];
  let sent = 0;
  const sentAt: number[] = [];
  const connection = new UpstreamConnection(spec, {
    // A fixture is a Node process: on a loaded 2-core machine its start alone can pass 5 s. Tests
    // of the timeouts themselves set their own.
    requestTimeoutMs: 30_000,
    callTimeoutMs: 30_000,
    backoff: { initialDelayMs: 100, maxDelayMs: 400 },
    clientInfo: { name: 'test', version: '1' },
    random: () => 0.5,
    onMessageSent: () => {
      sent += 1;
      sentAt.push(Date.now());
    },
    onChange: (status) => history.push({ at: Date.now(), status }),
    ...overrides,
  });
  defer(() => connection.stop());
  return {
    connection,
    history,
    sent: () => sent,
    sentAt,
    states: () => history.map((h) => h.status.state).filter((s, i, all) => i === 0 || all[i - 1] !== s),
    until: (check, timeoutMs = 30_000) =>
      eventually(() => {
        const status = connection.status();
        if (!check(status)) throw new Error(`status never matched; last: ${JSON.stringify({ ...status, tools: [...status.tools.keys()] })}`);
        return status;
      }, timeoutMs),
  };
}

function stdio(name: string, args: readonly string[]): UpstreamSpec {
  return { name, transport: 'stdio', command: process.execPath, args: [FIXTURE_MAIN, ...args], env: {} };
}

describe('reconnectDelay', () => {
  it('stays within [ceiling/2, ceiling] of a capped doubling', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 100_000 }), fc.nat(60), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (initial, max, attempt, r) => {
        const ceiling = Math.min(max, initial * 2 ** Math.min(attempt, 40));
        const delay = reconnectDelay({ initialDelayMs: initial, maxDelayMs: max }, attempt, () => r);
        return delay >= Math.floor(ceiling / 2) && delay <= Math.ceil(ceiling);
      }),
    );
  });

  it('doubles until the cap', () => {
    const policy = { initialDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4, 5].map((n) => reconnectDelay(policy, n, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect([0, 1, 2].map((n) => reconnectDelay(policy, n, () => 0))).toEqual([50, 100, 200]);
  });
});

describe('UpstreamConnection over stdio', () => {
  it('goes connecting -> discovering -> ready, indexing every page with sha256/v1 hashes', async () => {
    const s = scratch();
    const tools = Array.from({ length: 5 }, (_, i) => tool(`t${i}`, { annotations: { readOnlyHint: i % 2 === 0 } }));
    const up = observe(stdio('fx', ['--tools', s.writeTools('tools.json', tools), '--page-size', '2', '--count-file', s.file('count')]));
    expect(up.connection.status()).toMatchObject({ state: undefined, ever_ready: false });
    up.connection.start();
    const ready = await up.until((st) => st.state === 'ready');
    expect(up.states()).toEqual(['connecting', 'discovering', 'ready']);
    expect([...ready.tools.keys()]).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(ready.tools.get('t3')?.hash).toBe(toolHash(tools[3] as never));
    expect(ready.tools.get('t2')?.definition.annotations).toEqual({ readOnlyHint: true });
    // initialize, initialized, and three tools/list pages; the fixture saw exactly what we sent
    expect(up.sent()).toBe(5);
    await eventually(() => expect(s.readCount('count')).toBe(5));
  });

  it('is connecting (initializing) for as long as the upstream holds back its start', async () => {
    const s = scratch();
    const pidFile = s.file('slow.pid');
    const up = observe(stdio('slow', ['--start-delay-ms', '3000', '--pid-file', pidFile]));
    const started = Date.now();
    up.connection.start();
    // The upstream runs (it wrote its pid) and holds back its answer for 3 s from then.
    await eventually(() => expect(existsSync(pidFile)).toBe(true));
    expect(up.connection.status().state).toBe('connecting');
    await up.until((st) => st.state === 'ready');
    expect(up.states()).toEqual(['connecting', 'discovering', 'ready']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
  });

  it('reports a lost upstream as disconnected (restart), keeps its tools, and reconnects after a backoff', async () => {
    const up = observe(stdio('fx', []));
    up.connection.start();
    const ready = await up.until((st) => st.state === 'ready');
    await expect(up.connection.callTool('exit', undefined)).resolves.toMatchObject({ content: [{ type: 'text', text: 'exiting' }] });
    const lost = await up.until((st) => st.state === 'disconnected');
    expect(lost).toMatchObject({ ever_ready: true, diagnostic_action: 'restart', last_error: 'the upstream process exited' });
    expect(lost.tools).toBe(ready.tools);
    const lostAt = up.history.findIndex((h) => h.status.state === 'disconnected');
    await up.until((st) => st.state === 'ready' && st.tools !== ready.tools);
    // The retry (after initial * (1/2 + random/2) = 75 ms here) reads disconnected until it is ready.
    expect(up.history.slice(lostAt).map((h) => h.status.state)).toEqual(['disconnected', 'ready']);
    expect(up.connection.status().last_error).toBeUndefined();
    expect(up.connection.status().diagnostic_action).toBeUndefined();
  });

  it('reports an upstream that dies at start as error with its last stderr line, retrying with growing delays', async () => {
    const spec: UpstreamSpec = {
      name: 'crash',
      transport: 'stdio',
      command: process.execPath,
      args: ['-e', 'console.error("boom: missing API token"); process.exit(3)'],
      env: {},
    };
    const up = observe(spec, { backoff: { initialDelayMs: 80, maxDelayMs: 1000 } });
    up.connection.start();
    const failed = await up.until((st) => st.state === 'error');
    expect(failed).toMatchObject({ ever_ready: false, diagnostic_action: 'restart' });
    expect(failed.last_error).toMatch(/exited: boom: missing API token$/);
    // Each attempt sends initialize, which the process never answers: one message per attempt.
    await eventually(() => expect(up.sentAt.length).toBeGreaterThanOrEqual(4), 10_000);
    const attempts = up.sentAt;
    // Its retries read error (server_unhealthy) throughout, never connecting (server_initializing) again.
    expect(up.states()).toEqual(['connecting', 'error']);
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
    // 60, 120, 240 ms (+ process start time): each gap at least the backoff of its attempt
    expect(gaps[0]).toBeGreaterThanOrEqual(55);
    expect(gaps[2]).toBeGreaterThanOrEqual(235);
    // the last error stays while it retries
    expect(up.connection.status().last_error).toMatch(/boom/);
  });

  it('reports a command that cannot be started as error, naming the cause', async () => {
    const up = observe({ name: 'nowhere', transport: 'stdio', command: '/nonexistent/mcp-server', args: [], env: {} });
    up.connection.start();
    const failed = await up.until((st) => st.state === 'error');
    expect(failed.last_error).toMatch(/ENOENT/);
  });

  it('never waits on a silent upstream: a timeout is an error, and the event loop keeps running', async () => {
    // A 3 s window for a 20 ms ticker: a blocked loop ticks about once in it, a starved one (a loaded
    // 2-core machine gives this process a slice every few tens of ms) still ticks dozens of times; with
    // a 300 ms window, load 40 left only 6-7 ticks.
    const up = observe(stdio('mute', ['--start-delay-ms', '60000']), { requestTimeoutMs: 3000 });
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 20);
    defer(() => clearInterval(ticker));
    up.connection.start();
    const failed = await up.until((st) => st.state === 'error');
    expect(failed.last_error).toMatch(/did not answer within 3000 ms/);
    expect(failed.diagnostic_action).toBe('view_logs');
    expect(ticks).toBeGreaterThanOrEqual(8);
  });

  it('re-indexes on tools/list_changed (rug-pull)', async () => {
    const s = scratch();
    const file = s.writeTools('tools.json', [tool('a')]);
    const up = observe(stdio('fx', ['--tools', file, '--pid-file', s.file('pid')]));
    up.connection.start();
    const before = (await up.until((st) => st.state === 'ready')).tools.get('a')!.hash;
    s.writeTools('tools.json', [tool('a', { description: 'exfiltrates your files' }), tool('b')]);
    process.kill(s.readCount('pid'), 'SIGHUP');
    const after = await up.until((st) => st.tools.has('b'));
    expect(after.tools.get('a')!.hash).not.toBe(before);
    expect(after.state).toBe('ready');
  });

  it('forwards calls, returns tool errors unchanged, and times out a hanging tool', async () => {
    const s = scratch();
    const file = s.writeTools('tools.json', [tool('echo', { echo: true }), tool('bad', { error: 'nope' }), tool('slow', { delay_ms: 5000 })]);
    const up = observe(stdio('fx', ['--tools', file]), { callTimeoutMs: 300 });
    await expect(up.connection.callTool('echo', {})).rejects.toMatchObject({ code: 'server_not_connected' });
    up.connection.start();
    await up.until((st) => st.state === 'ready');
    expect(await up.connection.callTool('echo', { n: 1 })).toMatchObject({ structuredContent: { n: 1 } });
    expect(await up.connection.callTool('bad', undefined)).toMatchObject({ isError: true, content: [{ type: 'text', text: 'nope' }] });
    const timedOut = await up.connection.callTool('slow', {}).catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(RuntimeError);
    expect(timedOut).toMatchObject({ code: 'upstream_timeout' });
  });

  it('stops: disconnected, and no reconnect afterwards', async () => {
    const up = observe(stdio('fx', []));
    // A control beside it, with the same backoff: its upstream goes away too, and it reconnects.
    const control = observe(stdio('control', []));
    up.connection.start();
    control.connection.start();
    await up.until((st) => st.state === 'ready');
    const controlReady = await control.until((st) => st.state === 'ready');
    await up.connection.stop();
    expect(up.connection.status().state).toBe('disconnected');
    const count = up.history.length;
    await control.connection.callTool('exit', undefined);
    await control.until((st) => st.state === 'ready' && st.tools !== controlReady.tools);
    // In the time the control took to notice the loss and reconnect, the stopped one did nothing.
    expect(up.history.length).toBe(count);
  });
});

describe('UpstreamConnection over Streamable HTTP', () => {
  it('is pending_auth after a 401 (WWW-Authenticate kept, action login), then ready with a stored credential', async () => {
    const fixture = await startHttpFixture(['--require-token', 'open-sesame-123']);
    defer(() => fixture.stop());
    const stored: { credential?: string } = {};
    // A query string is where URLs often carry secrets: last_error (shown to agent tokens) leaves it out.
    const url = `${fixture.url}?api_key=not-for-agents`;
    const up = observe({ name: 'remote', transport: 'http', url, headers: {} }, { credential: async () => stored.credential });
    up.connection.start();
    const pending = await up.until((st) => st.state === 'pending_auth');
    expect(pending).toMatchObject({ diagnostic_action: 'login', www_authenticate: 'Bearer realm="mcp-fixture", error="invalid_token"' });
    expect(pending.last_error).toBe(`${fixture.url} answered 401 Unauthorized`);

    stored.credential = 'open-sesame-123';
    await up.connection.restart();
    const ready = await up.until((st) => st.state === 'ready');
    expect(up.states()).toContain('authenticating');
    expect(ready.www_authenticate).toBeUndefined();
    expect([...ready.tools.keys()]).toEqual(['echo', 'get_greeting', 'delete_everything']);
  });

  it('stays pending_auth through its background retries (the verdict must not flicker to initializing)', async () => {
    const fixture = await startHttpFixture(['--require-token', 'open-sesame-123']);
    defer(() => fixture.stop());
    const up = observe({ name: 'remote', transport: 'http', url: fixture.url, headers: {} }, { backoff: { initialDelayMs: 20, maxDelayMs: 40 } });
    up.connection.start();
    await up.until((st) => st.state === 'pending_auth');
    const before = up.history.length;
    // Retries at 20-40 ms, each answered 401 again: wait for a few of them.
    await eventually(() => expect([up.sent() > 2, up.history.length > before + 2]).toEqual([true, true]));
    expect(up.states()).toEqual(['connecting', 'pending_auth']);
  });

  it('sends configured headers (a configured Authorization wins over a stored credential)', async () => {
    const fixture = await startHttpFixture(['--require-token', 'from-config-1234']);
    defer(() => fixture.stop());
    const up = observe(
      { name: 'remote', transport: 'http', url: fixture.url, headers: { Authorization: 'Bearer from-config-1234' } },
      { credential: async () => 'stale-credential' },
    );
    up.connection.start();
    await up.until((st) => st.state === 'ready');
    expect(await up.connection.callTool('echo', { text: 'hi' })).toMatchObject({ structuredContent: { text: 'hi' } });
  });

  it('notices an HTTP upstream that went away (disconnected), and reconnects when it is back', async () => {
    const s = scratch();
    const streams = s.file('streams');
    const fixture = await startHttpFixture(['--streams-file', streams]);
    defer(() => fixture.stop());
    const up = observe({ name: 'remote', transport: 'http', url: fixture.url, headers: {} }, { requestTimeoutMs: 1000 });
    up.connection.start();
    const ready = await up.until((st) => st.state === 'ready');
    // Once the connection's event stream is open, kill the upstream: the stream's end is how it notices.
    await eventually(() => expect(s.readCount('streams')).toBeGreaterThanOrEqual(1));
    await fixture.stop();
    const lost = await up.until((st) => st.state === 'disconnected' || st.state === 'error');
    expect(lost.ever_ready).toBe(true);
    expect(lost.tools).toBe(ready.tools);
    expect(lost.diagnostic_action).toBe('view_logs');
    await expect(up.connection.callTool('echo', {})).rejects.toMatchObject({ code: 'server_not_connected' });

    const back = await startHttpFixture(['--http', new URL(fixture.url).port]);
    defer(() => back.stop());
    expect(back.url).toBe(fixture.url);
    const again = await up.until((st) => st.state === 'ready' && st.tools !== ready.tools);
    expect(again.last_error).toBeUndefined();
  });

  it('reports a URL that cannot be parsed as error instead of throwing', async () => {
    const up = observe({ name: 'bad', transport: 'http', url: 'http://[not-a-host/mcp', headers: {} });
    up.connection.start();
    const failed = await up.until((st) => st.state === 'error');
    expect(failed.last_error).toMatch(/Invalid URL/);
  });

  it('is an error (view_logs) when nothing listens', async () => {
    const up = observe({ name: 'gone', transport: 'http', url: 'http://127.0.0.1:9/mcp', headers: {} });
    up.connection.start();
    const failed = await up.until((st) => st.state === 'error');
    expect(failed.diagnostic_action).toBe('view_logs');
    expect(failed.last_error).toBeDefined();
  });
});
