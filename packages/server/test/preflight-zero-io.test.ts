// A preflight performs no upstream I/O and changes no state. Two real upstreams hang: one was ready
// and is then frozen (SIGSTOP), one never answers its initialize. Preflights of every kind go through
// REST; every message to any upstream is counted twice (the runtime's counter and each fixture's own
// --count-file), and the published state is the very same object before and after.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishedState } from '../src/state/gateway-runtime.js';
import { eventually } from './fixture-process.js';
import { connectClient, fixtureServer, readCount, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { restClient } from './rest-client.js';

const dir = new TempDir();
let gw: TestGateway;
let frozenPid = 0;
const counts = { frozen: `${dir.path}/frozen.count`, hanging: `${dir.path}/hanging.count` };

beforeAll(async () => {
  const tools = dir.tools('t', [{ name: 'read', annotations: { readOnlyHint: true } }, { name: 'write' }]);
  const frozen = fixtureServer('frozen', tools, {}, counts.frozen);
  const hanging = fixtureServer('hanging', tools, {}, counts.hanging);
  gw = await startTestGateway(dir, {
    upstream_timeout_ms: 3_600_000,
    agent_tokens: [{ name: 'agent', token: 'agent-secret-0123456789', allowed_servers: ['frozen'] }],
    servers: [
      { ...frozen, args: [...(frozen.args as string[]), '--pid-file', `${dir.path}/frozen.pid`] },
      { ...hanging, args: [...(hanging.args as string[]), '--start-delay-ms', '3600000'] },
    ],
  });
  await waitForState(gw.gateway, serverReady('frozen'));
  frozenPid = Number(readFileSync(`${dir.path}/frozen.pid`, 'utf8'));
  process.kill(frozenPid, 'SIGSTOP');
});
afterAll(async () => {
  if (frozenPid !== 0) process.kill(frozenPid, 'SIGCONT');
  await gw?.close();
  dir.remove();
});

function serialise(state: PublishedState): string {
  return JSON.stringify(state.snapshot, (_key, value: unknown) => (value instanceof Map ? Object.fromEntries(value) : value));
}

describe('preflight against hanging upstreams', () => {
  it('sends no message to any upstream and changes no state', async () => {
    const operator = restClient(gw.gateway.origin!);
    const agent = restClient(gw.gateway.origin!, { bearer: 'agent-secret-0123456789' });
    const runtime = gw.gateway.runtime;
    // Start-up is over once the runtime has sent everything frozen counted plus the hanging
    // server's initialize (that fixture reads nothing for 10 minutes, so it never answers).
    await eventually(() => expect(runtime.upstreamMessageCount()).toBe(readCount(counts.frozen) + 1));
    const before = {
      runtime: runtime.upstreamMessageCount(),
      frozen: readCount(counts.frozen),
      hanging: readCount(counts.hanging),
      state: runtime.current(),
      serialised: serialise(runtime.current()),
    };
    const hash = runtime.current().snapshot.servers.get('frozen')!.tools.get('read')!.hash;
    const ids = [{ id: 'frozen:read' }, { id: 'frozen:write' }, { id: 'frozen:nope' }, { id: 'hanging:read' }, { id: 'ghost:x' }];
    const answers = await Promise.all([
      operator.preflight({ tools: ids }),
      agent.preflight({ tools: ids }),
      operator.preflight({ tools: [{ id: 'frozen:read', pin_hash: hash }, { id: 'frozen:write', pin_hash: 'sha256/v1:00' }] }),
      operator.preflight({ tools: ids, policy: { read_only_only: true, exclude_destructive: true, exclude_open_world: true } }),
      operator.preflight({ tools: [{ id: 'hanging:read' }], wait_ms: 600 }),
      operator.preflight({ tools: [{ id: 'frozen:read' }], profile: 'missing' }),
      operator.call('GET', '/api/v1/servers'),
      operator.call('GET', '/api/v1/tools'),
      agent.call('GET', '/api/v1/tools'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 400, 200, 200, 200]);
    expect(answers[0]!.body.tools.map((t: { reason?: string; status: string }) => t.reason ?? t.status)).toEqual([
      'ready',
      'ready',
      'not_found',
      'server_initializing',
      'server_not_configured',
    ]);
    expect(answers[4]!.body).toMatchObject({ verdict: 'degraded_retryable' });
    expect(answers[4]!.body.waited_ms).toBeGreaterThanOrEqual(500);
    expect(runtime.current()).toBe(before.state);
    expect(serialise(runtime.current())).toBe(before.serialised);
    expect({ runtime: runtime.upstreamMessageCount(), frozen: readCount(counts.frozen), hanging: readCount(counts.hanging) }).toEqual({
      runtime: before.runtime,
      frozen: before.frozen,
      hanging: before.hanging,
    });
    // The counters are live: the fixtures did count the messages of their start-up.
    expect(before.frozen).toBeGreaterThan(0);
    expect(before.runtime).toBeGreaterThan(before.frozen - 1);

    // The frozen fixture could not count while stopped: wake it and send one call through the
    // gateway. Anything the preflights had sent it sits ahead of that call on the same pipe, so once
    // the call is counted, the count says exactly how many messages it got.
    process.kill(frozenPid, 'SIGCONT');
    frozenPid = 0;
    const client = await connectClient(gw.url, 'legacy');
    try {
      expect((await client.callTool({ name: 'frozen:read', arguments: {} })).isError).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(runtime.upstreamMessageCount()).toBe(before.runtime + 1);
    await eventually(() => expect(readCount(counts.frozen)).toBe(before.frozen + 1));
  });
});
