// The seam's evaluation memo: the same request text from the same caller on the same published
// snapshot version shares one evaluation, and anything that could change the verdict (a new state
// version, another caller's scope or tier, another surface, a wait) is evaluated afresh. Every
// answer still writes its own activity record with its own request id.
// (Riders have their own memo in @mcpproxy/extension: rider-memo.ts.)
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { EvaluationMemo, MEMO_MAX_TEXT_LENGTH } from '../src/preflight/evaluation-memo.js';
import { createPreflightSeam, type PreflightCall, type PreflightOutcome } from '../src/preflight/preflight-seam.js';
import { cleanupAfterEach } from './cleanup-after-each.js';
import { tool } from './fixture-process.js';
import { fixtureServer, startHarness, type Harness } from './runtime-harness.js';

const { defer, scratch } = cleanupAfterEach();

const ALL = { allowed_servers: '*' } as const;

async function world(): Promise<Harness> {
  const s = scratch();
  const file = s.writeTools('alpha.json', [tool('echo'), tool('write')]);
  const h = await startHarness(s, { servers: [fixtureServer('alpha', ['--tools', file], { quarantined: false }), fixtureServer('beta', ['--tools', file], { quarantined: false })] } as never);
  defer(() => h.stop());
  await h.until('alpha', (server) => server.connection.state === 'ready');
  await h.until('beta', (server) => server.connection.state === 'ready');
  return h;
}

/** A REST call as the endpoint makes it: the parsed body and its text. */
function rest(body: unknown, extra: Partial<PreflightCall> = {}): PreflightCall {
  return { surface: 'rest', tier: 'operator', scope: ALL, raw: body, text: JSON.stringify(body), ...extra } as PreflightCall;
}

function resultOf(outcome: PreflightOutcome) {
  if (!outcome.ok) throw new Error(`expected a verdict, got ${outcome.error.code}`);
  return outcome.result;
}

describe('evaluation memo in the seam', () => {
  it('shares one evaluation between identical requests on one version, with a record and request id for each', async () => {
    const h = await world();
    const seam = createPreflightSeam({ runtime: h.runtime, activity: h.store });
    const body = { tools: [{ id: 'alpha:echo' }, { id: 'beta:write' }, { id: 'alpha:nope' }] };
    const first = resultOf(await seam.run(rest(body, { requestId: 'memo-1' })));
    // Frozen (and its renderings cached) only from its first reuse: a request nobody repeats pays nothing.
    expect(Object.isFrozen(first.tools)).toBe(false);
    const second = resultOf(await seam.run(rest(body, { requestId: 'memo-2' })));
    expect(second.tools).toBe(first.tools);
    expect(Object.isFrozen(second.tools) && second.tools.every((tool) => Object.isFrozen(tool))).toBe(true);
    expect(second.state_version).toBe(first.state_version);
    expect([first.request_id, second.request_id]).toEqual(['memo-1', 'memo-2']);
    expect(second.activity_id).toBeGreaterThan(first.activity_id);
    const records = await h.store.queryActivity({ type: 'preflight' });
    expect(records.map((r) => r.request_id).sort()).toEqual(['memo-1', 'memo-2']);
    expect(records[0]!.metadata).toEqual(records[1]!.metadata);
    expect(records[0]!.metadata['per_tool']).toEqual([
      { id: 'alpha:echo', status: 'ready' },
      { id: 'beta:write', status: 'ready' },
      { id: 'alpha:nope', status: 'unavailable', reason: 'not_found' },
    ]);
  });

  it('evaluates afresh when the published state changes, and the new verdict is the one answered', async () => {
    const h = await world();
    const seam = createPreflightSeam({ runtime: h.runtime, activity: h.store });
    const body = { tools: [{ id: 'alpha:echo' }] };
    const before = resultOf(await seam.run(rest(body)));
    expect(before.verdict).toBe('ready');
    await h.runtime.setQuarantined('alpha', true);
    const after = resultOf(await seam.run(rest(body)));
    expect(after.state_version).toBeGreaterThan(before.state_version);
    expect(after.verdict).toBe('blocked');
    expect(after.tools[0]?.reason).toBe('server_quarantined');
    await h.runtime.setQuarantined('alpha', false);
    expect(resultOf(await seam.run(rest(body))).verdict).toBe('ready');
  });

  it('never shares between callers of another tier, scope or surface, nor for requests that wait', async () => {
    const h = await world();
    const seam = createPreflightSeam({ runtime: h.runtime, activity: h.store });
    const body = { tools: [{ id: 'alpha:echo' }] };
    const operator = resultOf(await seam.run(rest(body)));
    const agent = resultOf(await seam.run(rest(body, { tier: 'agent' })));
    expect(agent.tools).not.toBe(operator.tools);
    // The operator tier sees hashes; the agent tier never does.
    expect(operator.tools[0]).toHaveProperty('hash');
    expect(agent.tools[0]).not.toHaveProperty('hash');
    const onlyBeta = resultOf(await seam.run(rest(body, { tier: 'agent', scope: { allowed_servers: ['beta'] } })));
    expect(onlyBeta.tools[0]?.reason).toBe('not_found');
    const cli = resultOf(await seam.run(rest(body, { surface: 'cli' })));
    expect(cli.tools).not.toBe(operator.tools);
    const waiting = { ...body, wait_ms: 0 };
    const w1 = resultOf(await seam.run(rest(waiting)));
    const w2 = resultOf(await seam.run(rest(waiting)));
    expect(w2.tools).not.toBe(w1.tools);
    expect(w2.waited_ms).toBe(0);
  });

  it('answers invalid text with the same error every time (errors are not memoised)', async () => {
    const h = await world();
    const seam = createPreflightSeam({ runtime: h.runtime, activity: h.store });
    for (let i = 0; i < 2; i++) {
      const outcome = await seam.run(rest({ tools: [{ id: 'alpha:echo', extra: true }] }));
      expect(outcome.ok ? undefined : [outcome.error.code, outcome.error.path]).toEqual(['invalid_request', '/tools/0/extra']);
    }
    expect(await h.store.queryActivity({})).toEqual([]);
  });
});

describe('EvaluationMemo', () => {
  const entry = (n: number) => ({ surfaceRequest: { entries: [] }, evaluation: { verdict: 'ready', tools: [], n } }) as never;

  it('does not keep a long text (a padded 1 MiB body would pin memory): same verdict, evaluated each time', async () => {
    const h = await world();
    const seam = createPreflightSeam({ runtime: h.runtime, activity: h.store });
    const body = { tools: [{ id: 'alpha:echo' }] };
    // Whitespace is legal JSON: the same request, padded past the limit.
    const padded = { ...rest(body), text: `${JSON.stringify(body)}${' '.repeat(MEMO_MAX_TEXT_LENGTH)}` } as PreflightCall;
    const first = resultOf(await seam.run(padded));
    const second = resultOf(await seam.run(padded));
    expect(second.verdict).toBe(first.verdict);
    expect(second.tools).not.toBe(first.tools);
    expect(Object.isFrozen(second.tools)).toBe(false);
    // At the limit it is kept.
    const atLimit = { ...rest(body), text: JSON.stringify(body).padEnd(MEMO_MAX_TEXT_LENGTH) } as PreflightCall;
    const kept = resultOf(await seam.run(atLimit));
    expect(resultOf(await seam.run(atLimit)).tools).toBe(kept.tools);
  });

  it('parses a body given only as text when the memo does not know it, and not when it does', async () => {
    const h = await world();
    const seam = createPreflightSeam({ runtime: h.runtime, activity: h.store });
    const text = JSON.stringify({ tools: [{ id: 'alpha:echo' }, { id: 'beta:nope' }] });
    const call = (extra: Partial<PreflightCall> = {}) => ({ surface: 'rest', tier: 'operator', scope: ALL, text, ...extra }) as PreflightCall;
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const first = resultOf(await seam.run(call({ requestId: 'text-1' })));
      expect(first.tools.map((t) => t.status)).toEqual(['ready', 'unavailable']);
      expect(parse.mock.calls.filter(([arg]) => arg === text)).toHaveLength(1);
      parse.mockClear();
      const again = resultOf(await seam.run(call({ requestId: 'text-2' })));
      expect(again.tools).toBe(first.tools);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    expect((await h.store.queryActivity({ type: 'preflight' })).map((r) => r.request_id).sort()).toEqual(['text-1', 'text-2']);
    // A text that is not one JSON value: a request error naming it, and no record.
    const broken = await seam.run({ surface: 'rest', tier: 'operator', scope: ALL, text: '{"tools": [' } as PreflightCall);
    expect(broken.ok ? undefined : [broken.error.code, broken.error.kind, broken.error.message.startsWith('The body is not one JSON value: ')]).toEqual(['invalid_json', 'request', true]);
    // The abort signal is asked for only by a request that waits.
    const signal = vi.fn(() => new AbortController().signal);
    await seam.run(call({ signal }));
    expect(signal).not.toHaveBeenCalled();
    resultOf(await seam.run({ surface: 'rest', tier: 'operator', scope: ALL, text: JSON.stringify({ tools: [{ id: 'alpha:echo' }], wait_ms: 0 }), signal } as PreflightCall));
    expect(signal).toHaveBeenCalledTimes(1);
  });

  it('keeps entries for one version only and starts over when full', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 9 })), { maxLength: 60 }), fc.integer({ min: 1, max: 5 }), (steps, capacity) => {
        const memo = new EvaluationMemo(capacity);
        let version = -1;
        let held = new Map<string, number>();
        for (const [v, k] of steps) {
          const key = memo.key('rest', 'operator', ALL, `body-${k}`);
          if (v !== version) {
            held = new Map();
            version = v;
          }
          const expected = held.get(key);
          expect((memo.get(v, key) as { evaluation: { n: number } } | undefined)?.evaluation.n).toBe(expected);
          if (expected === undefined) {
            if (held.size >= capacity) held = new Map();
            memo.set(v, key, entry(k));
            held.set(key, k);
          }
          expect(memo.size).toBe(held.size);
          expect(memo.size).toBeLessThanOrEqual(capacity);
        }
      }),
    );
  });

  it('tells scopes apart by content, and tiers and surfaces apart', () => {
    const memo = new EvaluationMemo();
    const keys = [
      memo.key('rest', 'operator', ALL, 'x'),
      memo.key('rest', 'agent', ALL, 'x'),
      memo.key('cli', 'operator', ALL, 'x'),
      memo.key('rest', 'agent', { allowed_servers: ['a'] }, 'x'),
      memo.key('rest', 'agent', { allowed_servers: ['a'], profile_pin: 'p' }, 'x'),
      memo.key('rest', 'agent', { allowed_servers: ['a'], active_profile: 'p' }, 'x'),
      memo.key('rest', 'operator', ALL, 'y'),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(memo.key('rest', 'agent', { allowed_servers: ['a'] }, 'x')).toBe(keys[3]);
  });
});
