// The preflight seam on the real runtime (real store, real fixture upstreams): validation per
// surface, caps before dedup, conflicting pins, dedup, profiles, tiers, the activity record written
// before the result, the failure paths (no verdict, no record), and wait_ms with its slot pool.
import { checkValue, strictValidators } from '@mcpproxy/schema';
import { describe, expect, it } from 'vitest';
import { createPreflightSeam, type PreflightSeam } from '../src/preflight/preflight-seam.js';
import type { PreflightRuntime } from '../src/preflight/state-change.js';
import type { PublishedState } from '../src/state/gateway-runtime.js';
import { cleanupAfterEach } from './cleanup-after-each.js';
import { ManualClock, settle } from './manual-clock.js';
import { ReplayRuntime } from './replay-runtime.js';
import { FailingActivityStore } from './failing-activity-store.js';
import { tool } from './fixture-process.js';
import { fixtureServer, startHarness, type Harness } from './runtime-harness.js';

const { defer, scratch } = cleanupAfterEach();

const ALL = { allowed_servers: '*' } as const;
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

async function world(extraServers: Record<string, unknown>[] = [], gateway: Record<string, unknown> = {}): Promise<Harness> {
  const h = await startWorld(extraServers, gateway);
  await h.until('alpha', (server) => server.connection.state === 'ready');
  await h.until('beta', (server) => server.connection.state === 'ready');
  return h;
}

/** The gateway of `world`, returned as soon as it runs, before any upstream is ready. */
async function startWorld(extraServers: Record<string, unknown>[] = [], gateway: Record<string, unknown> = {}): Promise<Harness> {
  const s = scratch();
  const file = s.writeTools('alpha.json', [tool('echo', { annotations: READ_ONLY }), tool('write', { annotations: { readOnlyHint: false, destructiveHint: true } })]);
  const h = await startHarness(s, {
    servers: [fixtureServer('alpha', ['--tools', file], { quarantined: false }), fixtureServer('beta', ['--tools', file], { quarantined: false }), ...extraServers],
    profiles: [{ name: 'only-beta', servers: ['beta'] }],
    ...gateway,
  } as never);
  defer(() => h.stop());
  return h;
}

function seamOf(h: Harness, store = h.store): PreflightSeam {
  return createPreflightSeam({ runtime: h.runtime, activity: store });
}

async function recordsOf(h: Harness, requestId: string) {
  return h.store.queryActivity({ request_id: requestId });
}

describe('preflight seam: requests', () => {
  it('validates each surface with its own schema and names the path at fault', async () => {
    const h = await world();
    const seam = seamOf(h);
    const cases: [Parameters<PreflightSeam['run']>[0], string, string][] = [
      [{ surface: 'rest', tier: 'operator', scope: ALL, raw: { tools: [{ id: 'alpha:echo', extra: 1 }] } }, 'invalid_request', '/tools/0/extra'],
      [{ surface: 'rest', tier: 'operator', scope: ALL, raw: { tools: [{ id: 'alpha:echo' }], wait_ms: 10_001 } }, 'invalid_request', '/wait_ms'],
      [{ surface: 'rest', tier: 'operator', scope: ALL, raw: [] }, 'invalid_request', ''],
      [{ surface: 'rest', tier: 'operator', scope: ALL, raw: { tools: [] } }, 'no_tools', '/tools'],
    ];
    for (const [call, code, path] of cases) {
      const outcome = await seam.run({ ...call, requestId: `case-${code}` });
      expect(outcome.ok, JSON.stringify(call.raw)).toBe(false);
      if (outcome.ok) continue;
      expect({ code: outcome.error.code, kind: outcome.error.kind, path: outcome.error.path }).toEqual({ code, kind: 'request', path });
    }
    expect(await h.store.queryActivity({})).toEqual([]);
  });

  it('counts the raw array against the cap of 100 before dedup', async () => {
    const h = await world();
    const seam = seamOf(h);
    const same = (n: number) => Array.from({ length: n }, () => ({ id: 'alpha:echo' }));
    const rest101 = await seam.run({ surface: 'rest', tier: 'operator', scope: ALL, raw: { tools: same(101) } });
    expect(rest101.ok ? undefined : { code: rest101.error.code, count: rest101.error.count, max: rest101.error.max }).toEqual({ code: 'too_many_tools', count: 101, max: 100 });
    const rest100 = await seam.run({ surface: 'rest', tier: 'operator', scope: ALL, raw: { tools: same(100) } });
    expect(rest100.ok && rest100.result.tools.length).toBe(1);
  });

  it('dedupes on the trimmed form, keeps first occurrences verbatim and in order', async () => {
    const h = await world();
    const outcome = await seamOf(h).run({
      surface: 'rest',
      tier: 'operator',
      scope: ALL,
      raw: { tools: [{ id: ' alpha : echo ' }, { id: 'beta:write' }, { id: 'alpha:echo' }, { id: 'alpha:echo ' }, { id: 'nope' }] },
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.result.tools.map((t) => [t.id, t.status])).toEqual([
      [' alpha : echo ', 'ready'],
      ['beta:write', 'ready'],
      ['nope', 'unavailable'],
    ]);
    const [record] = await recordsOf(h, outcome.result.request_id);
    expect((record?.metadata as { ids_count: number }).ids_count).toBe(3);
  });

  it('treats two different pins for one ID as a conflict (an absent pin counts as a value), equal pins as one entry', async () => {
    const h = await world();
    const seam = seamOf(h);
    const hash = h.server('alpha').tools.get('echo')!.hash;
    const conflicts = [
      [{ id: 'alpha:echo', pin_hash: hash }, { id: 'alpha:echo ', pin_hash: 'sha256/v1:00' }],
      [{ id: 'alpha:echo' }, { id: 'alpha:echo', pin_hash: hash }],
      [{ id: 'alpha:echo', pin_hash: hash }, { id: 'beta:echo' }, { id: ' alpha:echo' }],
    ];
    for (const tools of conflicts) {
      const outcome = await seam.run({ surface: 'rest', tier: 'operator', scope: ALL, raw: { tools } });
      expect(outcome.ok ? undefined : [outcome.error.code, outcome.error.path]).toEqual(['conflicting_pins', `/tools/${tools.length - 1}`]);
    }
    const same = await seam.run({ surface: 'rest', tier: 'operator', scope: ALL, raw: { tools: [{ id: 'alpha:echo', pin_hash: hash }, { id: 'alpha:echo', pin_hash: hash }] } });
    expect(same.ok && same.result.tools).toEqual([{ id: 'alpha:echo', status: 'ready', hash }]);
    // A pin that does not parse is a verdict, not a request error.
    const garbage = await seam.run({ surface: 'rest', tier: 'agent', scope: ALL, raw: { tools: [{ id: 'alpha:echo', pin_hash: 'not a hash' }] } });
    expect(garbage.ok && garbage.result.tools[0]?.reason).toBe('hash_mismatch');
  });

  it('validates the REST profile against the state and scopes the evaluation by it', async () => {
    const h = await world();
    const seam = seamOf(h);
    const unknown = await seam.run({ surface: 'rest', tier: 'operator', scope: ALL, raw: { tools: [{ id: 'alpha:echo' }], profile: 'ghost' } });
    expect(unknown.ok ? undefined : [unknown.error.code, unknown.error.path, unknown.error.kind]).toEqual(['unknown_profile', '/profile', 'request']);
    const operator = await seam.run({ surface: 'rest', tier: 'operator', scope: ALL, raw: { tools: [{ id: 'alpha:echo' }, { id: 'beta:echo' }], profile: 'only-beta' } });
    expect(operator.ok && operator.result.tools.map((t) => t.reason ?? t.status)).toEqual(['server_not_in_scope', 'ready']);
    const agent = await seam.run({ surface: 'cli', tier: 'agent', scope: ALL, raw: { tools: [{ id: 'alpha:echo' }], profile: 'only-beta' } });
    expect(agent.ok && agent.result.tools[0]?.reason).toBe('not_found');
  });

  it('honours a valid request id and replaces an invalid one', async () => {
    const h = await world();
    const seam = seamOf(h);
    const raw = { tools: [{ id: 'alpha:echo' }] };
    const kept = await seam.run({ surface: 'rest', tier: 'agent', scope: ALL, raw, requestId: 'my-Request_01' });
    expect(kept.ok && kept.result.request_id).toBe('my-Request_01');
    for (const bad of ['', 'has space', 'x'.repeat(257), 'semi;colon']) {
      const fresh = await seam.run({ surface: 'rest', tier: 'agent', scope: ALL, raw, requestId: bad });
      expect(fresh.ok && fresh.result.request_id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('preflight seam: the activity record', () => {
  it('is written, strictly valid and complete, before run() resolves', async () => {
    const h = await world();
    const seam = seamOf(h);
    const outcome = await seam.run({
      surface: 'rest',
      tier: 'agent',
      scope: ALL,
      raw: { tools: ['alpha:echo', 'alpha:write', 'alpha:nope', 'ghost:x', 'alpha:echo'].map((id) => ({ id })), policy: { exclude_destructive: true } },
      requestId: 'check-1',
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const records = await recordsOf(h, 'check-1');
    expect(records).toHaveLength(1);
    const record = records[0]!;
    expect(checkValue(strictValidators.PreflightActivityRecord, record)).toEqual({ ok: true, value: record });
    expect(record).toMatchObject({
      id: outcome.result.activity_id,
      type: 'preflight',
      status: 'blocked',
      surface: 'rest',
      timestamp: outcome.result.checked_at,
      metadata: {
        verdict: 'unknown_ids',
        ids_count: 4,
        reasons: { policy_filtered: 1, not_found: 2 },
        per_tool: [
          { id: 'alpha:echo', status: 'ready' },
          { id: 'alpha:write', status: 'unavailable', reason: 'policy_filtered' },
          { id: 'alpha:nope', status: 'unavailable', reason: 'not_found' },
          { id: 'ghost:x', status: 'unavailable', reason: 'not_found' },
        ],
      },
    });
    // Never hashes, descriptions or detail texts.
    const text = JSON.stringify(record);
    expect(text).not.toMatch(/sha256\/v1:|the echo tool|detail|remediation/);
  });

  it('a store that cannot write the record gives activity_unavailable and no verdict', async () => {
    const h = await world();
    const failing = new FailingActivityStore(h.store);
    const seam = seamOf(h, failing);
    failing.failing = true;
    const outcome = await seam.run({ surface: 'rest', tier: 'operator', scope: ALL, raw: { tools: [{ id: 'alpha:echo' }] }, requestId: 'fails' });
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'activity_unavailable', kind: 'unavailable', message: expect.stringContaining('no verdict') as unknown, path: '', request_id: 'fails' },
    });
    expect(failing.refused).toBe(1);
    expect(await recordsOf(h, 'fails')).toEqual([]);
    failing.failing = false;
    expect((await seam.run({ surface: 'rest', tier: 'operator', scope: ALL, raw: { tools: [{ id: 'alpha:echo' }] }, requestId: 'works' })).ok).toBe(true);
    expect(await recordsOf(h, 'works')).toHaveLength(1);
  });

  it('a state that cannot be read gives state_unavailable and writes nothing', async () => {
    const h = await world();
    // The runtime interface, implemented by a class whose published state cannot be read.
    class UnreadableRuntime implements PreflightRuntime {
      current(): PublishedState {
        throw new Error('state unavailable (injected)');
      }
      subscribe(): () => void {
        return () => undefined;
      }
    }
    const seam = createPreflightSeam({ runtime: new UnreadableRuntime(), activity: h.store });
    const plain = await seam.run({ surface: 'rest', tier: 'agent', scope: ALL, raw: { tools: [{ id: 'alpha:echo' }] }, requestId: 'no-state' });
    const profiled = await seam.run({ surface: 'rest', tier: 'agent', scope: ALL, raw: { tools: [{ id: 'alpha:echo' }], profile: 'only-beta' }, requestId: 'no-state' });
    for (const outcome of [plain, profiled]) expect(outcome.ok ? undefined : [outcome.error.code, outcome.error.kind]).toEqual(['state_unavailable', 'unavailable']);
    expect(await recordsOf(h, 'no-state')).toEqual([]);
  });
});

describe('preflight seam: wait_ms', () => {
  // Waits run on a clock the test moves by hand, over real states the test publishes when it means
  // to: the spacing and waited_ms asserted below are exact, whatever the machine's load.
  async function waitWorld(): Promise<{ h: Harness; retryable: PublishedState; ready: PublishedState }> {
    const s = scratch();
    const file = s.writeTools('slow.json', [tool('t')]);
    // The state is read the moment the runtime runs: waiting for alpha and beta first let a loaded
    // machine pass slow's start delay, so the "retryable" state was already ready.
    const h = await startWorld([fixtureServer('slow', ['--tools', file, '--start-delay-ms', '1500'], { quarantined: false })]);
    const retryable = h.runtime.current();
    expect(retryable.snapshot.servers.get('slow')?.connection.state).not.toBe('ready');
    for (const name of ['alpha', 'beta', 'slow']) await h.until(name, (server) => server.connection.state === 'ready');
    return { h, retryable, ready: h.runtime.current() };
  }

  function waitingSeam(h: Harness, initial: PublishedState, options: { minReevaluateMs?: number } = {}) {
    const clock = new ManualClock();
    const runtime = new ReplayRuntime(initial, () => clock.now());
    const seam = createPreflightSeam({ runtime, activity: h.store, clock, ...options });
    const call = (wait_ms: number, requestId?: string) => seam.run({ surface: 'rest', tier: 'agent', scope: ALL, raw: { tools: [{ id: 'slow:t' }], wait_ms }, requestId });
    return { clock, runtime, seam, call };
  }

  it('does not wait for a verdict that is not degraded_retryable', async () => {
    const { h, ready } = await waitWorld();
    const { clock, seam } = waitingSeam(h, ready);
    const outcome = await seam.run({ surface: 'rest', tier: 'agent', scope: ALL, raw: { tools: [{ id: 'alpha:echo' }, { id: 'alpha:nope' }], wait_ms: 5000 } });
    expect(outcome.ok && [outcome.result.verdict, outcome.result.waited_ms]).toEqual(['unknown_ids', 0]);
    expect([clock.setCount, seam.waitSlots.inUse]).toEqual([0, 0]);
  });

  it('waits while initializing, stops at the change that makes the server ready, and writes one record', async () => {
    const { h, retryable, ready } = await waitWorld();
    const { clock, runtime, seam, call } = waitingSeam(h, retryable);
    const answer = call(8000, 'waits');
    await settle();
    expect(seam.waitSlots.inUse).toBe(1);
    await clock.advance(400);
    runtime.publish(ready);
    const outcome = await answer;
    expect(outcome.ok && [outcome.result.verdict, outcome.result.waited_ms]).toEqual(['ready', 400]);
    expect(runtime.evaluations).toEqual([0, 400]);
    expect(clock.pending).toBe(0);
    const records = await recordsOf(h, 'waits');
    expect(records.map((r) => (r.metadata as { verdict: string }).verdict)).toEqual(['ready']);
  });

  it('re-evaluates no faster than every 250 ms while the state keeps changing, and answers at the deadline', async () => {
    const { h, retryable } = await waitWorld();
    const { clock, runtime, call } = waitingSeam(h, retryable);
    const answer = call(1600);
    let settled = false;
    void answer.then(() => (settled = true));
    await settle();
    // A new state every 50 ms, each still retryable (a flapping upstream).
    let published = 0;
    while (!settled && clock.now() < 2000) {
      await clock.advance(50);
      runtime.publish(retryable);
      published += 1;
      await settle();
    }
    const outcome = await answer;
    expect(outcome.ok && outcome.result.verdict).toBe('degraded_retryable');
    expect(runtime.evaluations).toEqual([0, 250, 500, 750, 1000, 1250, 1500]);
    // The change published at 1500, just after that evaluation, could be looked at no sooner than 1750
    // (the last evaluation + 250), after the 1600 deadline: the answer comes with it, at once.
    expect(outcome.ok && outcome.result.waited_ms).toBe(1500);
    expect(published).toBeGreaterThan(runtime.evaluations.length);
  });

  it('answers at once when the state changes but the next evaluation would fall after the deadline', async () => {
    const { h, retryable } = await waitWorld();
    const { clock, runtime, call } = waitingSeam(h, retryable, { minReevaluateMs: 10_000 });
    const answer = call(3000);
    await settle();
    await clock.advance(100);
    runtime.publish(retryable);
    const outcome = await answer;
    expect(outcome.ok && [outcome.result.verdict, outcome.result.waited_ms]).toEqual(['degraded_retryable', 100]);
    expect(runtime.evaluations).toEqual([0]);
    expect(clock.pending).toBe(0);
  });

  it('answers at the deadline when nothing changes', async () => {
    const { h, retryable } = await waitWorld();
    const { clock, runtime, call } = waitingSeam(h, retryable);
    const answer = call(1200);
    let settled = false;
    void answer.then(() => (settled = true));
    await clock.advance(1199);
    expect(settled).toBe(false);
    await clock.advance(1);
    const outcome = await answer;
    expect(outcome.ok && [outcome.result.verdict, outcome.result.waited_ms]).toEqual(['degraded_retryable', 1200]);
    expect(runtime.evaluations).toEqual([0]);
  });

  it('has four wait slots: a fifth concurrent wait answers at once with waited_ms 0, never queued', async () => {
    const { h, retryable } = await waitWorld();
    const { clock, seam, call } = waitingSeam(h, retryable);
    const waiting = [0, 1, 2, 3].map((i) => call(1200, `slot-${i}`));
    await settle();
    expect(seam.waitSlots.inUse).toBe(4);
    const fifth = await call(1200, 'fifth');
    expect(fifth.ok && [fifth.result.verdict, fifth.result.waited_ms]).toEqual(['degraded_retryable', 0]);
    await clock.advance(1200);
    const settledOutcomes = await Promise.all(waiting);
    for (const outcome of settledOutcomes) expect(outcome.ok && outcome.result.waited_ms).toBe(1200);
    expect(seam.waitSlots.inUse).toBe(0);
    for (const id of ['slot-0', 'slot-1', 'slot-2', 'slot-3', 'fifth']) expect(await recordsOf(h, id)).toHaveLength(1);
  });

  it('runs on the real clock by default: a real wait ends when the real server becomes ready', async () => {
    const s = scratch();
    const file = s.writeTools('slow.json', [tool('t')]);
    const h = await startWorld([fixtureServer('slow', ['--tools', file, '--start-delay-ms', '1500'], { quarantined: false })]);
    expect(h.server('slow').connection.state).not.toBe('ready');
    const outcome = await seamOf(h).run({ surface: 'rest', tier: 'agent', scope: ALL, raw: { tools: [{ id: 'slow:t' }], wait_ms: 10_000 } });
    // Ready before the deadline: the wait ended on the change, not on time.
    expect(outcome.ok && outcome.result.verdict).toBe('ready');
    expect(outcome.ok && outcome.result.waited_ms).toBeLessThan(10_000);
  });
});
