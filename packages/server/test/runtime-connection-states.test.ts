// Every connection state of issue 4, induced on a real fixture and observed through the
// runtime's published snapshots (the only thing the surfaces read).
import { connectionGate, type ConnectionState } from '@mcpproxy/evaluator';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from './cleanup-after-each.js';
import type { Scratch} from './fixture-process.js';
import { eventually, startHttpFixture } from './fixture-process.js';
import { fixtureServer, startHarness } from './runtime-harness.js';
import type { Harness } from './runtime-harness.js';

const { defer, scratch } = cleanupAfterEach();

type HarnessConfig = Parameters<typeof startHarness>[1];

async function harness(config: HarnessConfig | ((s: Scratch) => HarnessConfig)): Promise<{ h: Harness; s: Scratch }> {
  const s = scratch();
  const h = await startHarness(s, typeof config === 'function' ? config(s) : config);
  defer(() => h.stop());
  return { h, s };
}

describe('connection states through the runtime', () => {
  it('initializing while the upstream delays its start, then ready', async () => {
    const { h } = await harness({ servers: [fixtureServer('slow', ['--start-delay-ms', '700'], { quarantined: false })] });
    const first = h.server('slow');
    expect(first.connection.ever_ready).toBe(false);
    expect(first.tools.size).toBe(0);
    const waiting = await h.until('slow', (s) => s.connection.state === 'connecting');
    expect(connectionGate(waiting.connection.state)).toBe('server_initializing');
    const ready = await h.until('slow', (s) => s.connection.state === 'ready');
    expect(ready.connection.ever_ready).toBe(true);
    expect(connectionGate(ready.connection.state)).toBeUndefined();
    expect([...ready.tools.keys()]).toEqual(['echo', 'get_greeting', 'delete_everything']);
    expect(ready.transport).toBe('stdio');
  });

  it('a hanging upstream is initializing until its first timeout, then unhealthy (timed out) through every retry', async () => {
    const { h } = await harness({
      upstream_timeout_ms: 1000,
      servers: [fixtureServer('hang', ['--start-delay-ms', '600000'], { quarantined: false })],
    });
    const seen: (ConnectionState | undefined)[] = [h.server('hang').connection.state];
    const unsubscribe = h.runtime.subscribe((state) => seen.push(state.snapshot.servers.get('hang')?.connection.state));
    defer(unsubscribe);
    // Every attempt sends initialize, which is never answered: three sends are three attempts.
    await eventually(() => expect(h.runtime.upstreamMessageCount()).toBeGreaterThanOrEqual(3), 60_000);
    const reasons = seen.map(connectionGate).filter((reason, i, all) => i === 0 || all[i - 1] !== reason);
    expect(reasons).toEqual(['server_initializing', 'server_unhealthy']);
    const hang = h.server('hang').connection;
    expect(hang.state).toBe('error');
    expect(hang.last_error).toMatch(/did not answer within 1000 ms$/);
  });

  it('unhealthy when the upstream exits (last tools kept), ready again after the backoff', async () => {
    const { h, s } = await harness((s) => ({ servers: [fixtureServer('fx', ['--pid-file', s.file('pid')], { quarantined: false })] }));
    const ready = await h.until('fx', (srv) => srv.connection.state === 'ready');
    process.kill(s.readCount('pid'), 'SIGUSR2');
    const down = await h.until('fx', (srv) => srv.connection.state === 'disconnected');
    expect(connectionGate(down.connection.state)).toBe('server_unhealthy');
    expect(down.connection).toMatchObject({ ever_ready: true, diagnostic_action: 'restart', last_error: 'the upstream process exited' });
    expect(down.tools).toBe(ready.tools);
    const again = await h.until('fx', (srv) => srv.connection.state === 'ready' && srv.tools !== ready.tools);
    expect(again.connection.last_error).toBeUndefined();
  });

  it('pending_auth when an HTTP upstream answers 401; a stored credential and a restart make it ready', async () => {
    const fixture = await startHttpFixture(['--require-token', 'a-long-upstream-token']);
    defer(() => fixture.stop());
    const { h } = await harness({ servers: [{ name: 'remote', url: fixture.url, quarantined: false }] });
    const pending = await h.until('remote', (s) => s.connection.state === 'pending_auth');
    expect(connectionGate(pending.connection.state)).toBe('oauth_required');
    expect(pending.connection.diagnostic_action).toBe('login');
    expect(pending.connection.www_authenticate).toBe('Bearer realm="mcp-fixture", error="invalid_token"');
    expect(pending.transport).toBe('http');

    await h.store.setUpstreamCredential('remote', 'a-long-upstream-token');
    await h.runtime.restart('remote');
    const ready = await h.until('remote', (s) => s.connection.state === 'ready');
    expect(ready.tools.has('echo')).toBe(true);
    expect(await h.runtime.callTool('remote', 'echo', { text: 'via http' })).toMatchObject({ structuredContent: { text: 'via http' } });
  });

  it('error with the upstream\'s own words when it cannot start', async () => {
    const { h } = await harness({
      servers: [{ name: 'broken', command: process.execPath, args: ['-e', 'console.error("config missing"); process.exit(1)'], quarantined: false }],
    });
    const failed = await h.until('broken', (s) => s.connection.state === 'error');
    expect(failed.connection.last_error).toContain('config missing');
    expect(failed.connection.ever_ready).toBe(false);
  });

  it('a disabled server is not connected; enabling connects it; restart reconnects', async () => {
    // peer starts beside fx: once peer is ready, fx would have sent its initialize had it started.
    const { h } = await harness({ servers: [fixtureServer('fx', [], { enabled: false, quarantined: false }), fixtureServer('peer', [], { quarantined: false })] });
    await h.until('peer', (srv) => srv.connection.state === 'ready');
    expect(h.server('fx')).toMatchObject({ enabled: false, connection: { ever_ready: false } });
    expect(h.server('fx').connection.state).toBeUndefined();
    expect(h.runtime.upstreamMessageCount()).toBe(3); // peer's initialize, initialized and tools/list

    await h.runtime.setEnabled('fx', true);
    expect(h.server('fx').enabled).toBe(true);
    const ready = await h.until('fx', (srv) => srv.connection.state === 'ready');
    await h.runtime.restart('fx');
    await h.until('fx', (srv) => srv.connection.state === 'ready' && srv.tools !== ready.tools);

    await h.runtime.setEnabled('fx', false);
    expect(h.server('fx')).toMatchObject({ enabled: false, connection: { state: 'disconnected' } });
    await expect(h.runtime.restart('fx')).rejects.toMatchObject({ code: 'server_disabled' });
    await expect(h.runtime.callTool('fx', 'echo', {})).rejects.toMatchObject({ code: 'server_disabled' });
  });
});
