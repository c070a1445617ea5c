// An upstream that says it is overloaded, against the real fixture (HTTP 429/503 with and without
// Retry-After, a configured JSON-RPC code over stdio) and a hand-moved clock: the connection stays
// ready but saturated, sends the upstream nothing until the window ends, ends it by the clock
// alone, and turns three bare-503 windows in a row into a lost connection that reconnects.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RuntimeError } from '../src/state/runtime-error.js';
import { UpstreamConnection } from '../src/upstream/upstream-connection.js';
import type { UpstreamConnectionOptions, UpstreamStatus } from '../src/upstream/upstream-connection.js';
import type { UpstreamSpec } from '../src/upstream/upstream-spec.js';
import { cleanupAfterEach } from './cleanup-after-each.js';
import { FIXTURE_MAIN, eventually, startHttpFixture, tool, type HttpFixture, type Scratch } from './fixture-process.js';
import { ManualClock } from './manual-clock.js';

const { defer, scratch } = cleanupAfterEach();

interface Upstream {
  readonly connection: UpstreamConnection;
  readonly clock: ManualClock;
  /** Rewrites the fixture's overload switch and makes it re-read it. */
  overload(value: Record<string, unknown>): void;
  /** JSON-RPC messages the connection sent. */
  sent(): number;
  until(check: (status: UpstreamStatus) => boolean): Promise<UpstreamStatus>;
}

async function start(s: Scratch, transport: 'http' | 'stdio', options: Partial<UpstreamConnectionOptions> = {}): Promise<Upstream> {
  const overloadFile = s.file('overload.json');
  const args = ['--tools', s.writeTools('tools.json', [tool('work', { echo: true })]), '--overload', overloadFile, '--pid-file', s.file('pid')];
  let http: HttpFixture | undefined;
  if (transport === 'http') {
    http = await startHttpFixture(args);
    defer(() => http?.stop());
  }
  const spec: UpstreamSpec =
    http === undefined ? { name: 'up', transport: 'stdio', command: process.execPath, args: [FIXTURE_MAIN, ...args], env: {} } : { name: 'up', transport: 'http', url: http.url, headers: {} };
  const clock = new ManualClock();
  let sent = 0;
  const connection = new UpstreamConnection(spec, {
    requestTimeoutMs: 30_000,
    callTimeoutMs: 30_000,
    backoff: { initialDelayMs: 1000, maxDelayMs: 4000 },
    clientInfo: { name: 'test', version: '1' },
    random: () => 1,
    onMessageSent: () => (sent += 1),
    onChange: () => undefined,
    clock,
    ...options,
  });
  defer(() => connection.stop());
  connection.start();
  const until = (check: (status: UpstreamStatus) => boolean) =>
    eventually(() => {
      const status = connection.status();
      if (!check(status)) throw new Error(`never matched; last: ${JSON.stringify({ ...status, tools: [...status.tools.keys()] })}`);
      return status;
    });
  await until((status) => status.state === 'ready');
  const pid = () => Number(s.readCount('pid'));
  return {
    connection,
    clock,
    overload: (value) => {
      writeFileSync(overloadFile, JSON.stringify(value));
      process.kill(pid(), 'SIGHUP');
    },
    sent: () => sent,
    until,
  };
}

/** The rejection of one call, as a RuntimeError. */
async function refusal(promise: Promise<unknown>): Promise<RuntimeError> {
  const error: unknown = await promise.then(
    () => undefined,
    (cause: unknown) => cause,
  );
  if (!(error instanceof RuntimeError)) throw new Error(`expected a RuntimeError, got ${String(error)}`);
  return error;
}

/** Calls until the fixture answers with its overload (the SIGHUP is asynchronous). */
async function callUntilSaturated(up: Upstream): Promise<RuntimeError> {
  return eventually(async () => {
    const error = await refusal(up.connection.callTool('work', {}));
    if (error.code !== 'server_saturated') throw error;
    return error;
  });
}

/**
 * The call that succeeds once the upstream is switched back. The fixture applies the switch on
 * SIGHUP, so on a loaded machine a first try can still meet the overload and open a new window
 * on the test's clock, which only the test moves: end any such window before each retry.
 */
async function callAfterRecovery(up: Upstream, n: number): Promise<void> {
  await eventually(async () => {
    if (up.connection.status().saturation !== undefined) await up.clock.advance(3_600_000);
    expect(await up.connection.callTool('work', { n })).toMatchObject({ structuredContent: { n } });
  });
}

describe('an HTTP upstream that answers 429 with Retry-After', () => {
  it('is saturated for exactly the Retry-After, is not called meanwhile, and is called again after', async () => {
    const up = await start(scratch(), 'http');
    up.overload({ status: 429, retry_after: '2' });
    const first = await callUntilSaturated(up);
    expect(first.message).toBe('up:work was not called: the upstream said it is overloaded (HTTP 429)');
    expect(up.connection.status()).toMatchObject({ state: 'ready', saturation: { signal: 'HTTP 429', retry_after_s: 2 } });

    const before = up.sent();
    const held = await refusal(up.connection.callTool('work', {}));
    expect(held.code).toBe('server_saturated');
    // Counted where every outgoing message passes: the refused call never left.
    expect(up.sent()).toBe(before);

    up.overload({});
    await up.clock.advance(1999);
    expect(up.connection.status().saturation).toBeDefined();
    await up.clock.advance(1);
    expect(up.connection.status().saturation).toBeUndefined();
    expect(up.connection.status().state).toBe('ready');
    // The clock ended it: nothing was sent to find out.
    expect(up.sent()).toBe(before);
    await callAfterRecovery(up, 1);
  });

  it('reads an HTTP-date Retry-After as the seconds left', async () => {
    const up = await start(scratch(), 'http');
    await up.clock.advance(Date.UTC(2026, 0, 1));
    up.overload({ status: 429, retry_after: 'Thu, 01 Jan 2026 00:01:00 GMT' });
    await callUntilSaturated(up);
    expect(up.connection.status().saturation).toEqual({ signal: 'HTTP 429', retry_after_s: 60 });
  });
});

describe('an HTTP upstream that answers 503 without Retry-After', () => {
  it('backs off, and after three windows in a row is unhealthy (the connection is lost, then reconnects)', async () => {
    const up = await start(scratch(), 'http');
    up.overload({ status: 503 });
    await callUntilSaturated(up);
    expect(up.connection.status().saturation).toEqual({ signal: 'HTTP 503' });
    await up.clock.advance(1000);
    expect(up.connection.status().saturation).toBeUndefined();
    await callUntilSaturated(up);
    await up.clock.advance(2000);
    expect(up.connection.status().saturation).toBeUndefined();
    const third = await refusal(up.connection.callTool('work', {}));
    expect(third.code).toBe('upstream_failed');
    const lost = up.connection.status();
    expect(lost).toMatchObject({ state: 'disconnected', diagnostic_action: 'view_logs' });
    expect(lost.last_error).toMatch(/answered 503 Service Unavailable without Retry-After in 3 backoff windows in a row$/);
    expect(lost.saturation).toBeUndefined();
    // The reconnect runs on the real timer; initialize is not overloaded, so it is ready again.
    await up.until((status) => status.state === 'ready');
    expect(up.connection.status().saturation).toBeUndefined();
  });
});

describe('a JSON-RPC error code', () => {
  it('listed in saturationErrorCodes saturates a stdio upstream with the backoff', async () => {
    const up = await start(scratch(), 'stdio', { saturationErrorCodes: [-32042] });
    up.overload({ error_code: -32042 });
    await callUntilSaturated(up);
    expect(up.connection.status()).toMatchObject({ state: 'ready', saturation: { signal: 'JSON-RPC error -32042' } });
    up.overload({});
    await up.clock.advance(1000);
    await callAfterRecovery(up, 2);
  });

  it('not listed is the upstream answering with an error, nothing more', async () => {
    const up = await start(scratch(), 'stdio', { saturationErrorCodes: [-32042] });
    up.overload({ error_code: -32043 });
    const error = await eventually(async () => {
      const failed = await refusal(up.connection.callTool('work', {}));
      if (!failed.message.includes('-32043') && !failed.message.includes('overloaded')) throw failed;
      return failed;
    });
    expect(error.code).toBe('upstream_failed');
    expect(up.connection.status().saturation).toBeUndefined();
    expect(up.clock.pending).toBe(0);
  });
});
