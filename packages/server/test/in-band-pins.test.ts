// Decision record 0003 (docs/decisions/0003-in-band-hash-pinning.md): in-band hash pinning, the
// attack it must resist, and the prototype behind the `pins` experiment. The attacker holds an agent
// token and wants to learn tool hashes it is not shown: for each tool it sends pins (guesses) and
// reads the verdicts. It may hold candidate definitions (the public releases of an upstream, the
// approved version of a tool that changed since), so guessing the right hash is allowed: what must
// not happen is an answer that tells a right guess from a wrong one for a tool whose definition it
// cannot read, or any answer that shows a hash or a part of one. A real gateway, real fixture
// upstreams, a real SQLite store reopened by a second gateway (so that one server has an approval
// record but was never connected since the start).
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_EXPERIMENTS } from '@mcpproxy/extension';
import { checkValue, EXTENSION_ID, strictValidators } from '@mcpproxy/schema';
import { fixtureServer, readCount, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import type { PublishedState } from '../src/state/gateway-runtime.js';
import { negotiating, withRawSession, type RawAnswer } from './raw-mcp-session.js';
import { ADMIN_KEY, restClient, type RestClient } from './rest-client.js';

const TOKEN = 'pin-attacker-token-0123456789';
const PINS = { version: 1, experimental: { pins: true } };

/** Every tool the attack aims at, and what it is to the attacker (all at the agent tier, scope without `other`). */
const TARGETS = {
  served: 'open:echo', // ready: served to the attacker, its definition is readable
  userBlocked: 'open:blocked', // tool_blocked_by_user
  configDenied: 'open:denied', // tool_denied_by_config
  changed: 'review:drifting', // tool_changed: the new definition waits for review
  pending: 'review:newcomer', // tool_pending_approval
  quarantined: 'vault:x', // server_quarantined
  disabled: 'off:x', // server_disabled
  outOfScope: 'other:x', // not_found (collapsed)
  unconfigured: 'ghost:x', // not_found
  notConnected: 'down:held', // server_initializing, with an approval record from before the restart
} as const;
type Target = keyof typeof TARGETS;
const TARGET_NAMES = Object.keys(TARGETS) as Target[];
const HIDDEN = TARGET_NAMES.filter((t) => t !== 'served');

let dir: TempDir;
let gw: TestGateway;
let operator: RestClient;
let agent: RestClient;
/** The hash each target's pin is compared with, read from the gateway's own state (what the attacker wants). */
const stored = new Map<Target, string>();

const config = (second: boolean) => ({
  api_key: ADMIN_KEY,
  upstream_timeout_ms: 3_600_000,
  extension_experiments: ['pins'],
  servers: [
    fixtureServer('open', dir.tools('open', [{ name: 'echo', echo: true }, { name: 'blocked', echo: true }, { name: 'denied', echo: true }]), { disabled_tools: ['denied'] }),
    fixtureServer('review', join(dir.path, 'review.tools.json')),
    { ...fixtureServer('vault', dir.tools('vault', [{ name: 'x', echo: true }])), quarantined: true },
    fixtureServer('other', dir.tools('other', [{ name: 'x', echo: true }])),
    // Enabled in the first run (its tools get approval records), disabled in the second.
    fixtureServer('off', dir.tools('off', [{ name: 'x', echo: true }]), { enabled: !second }),
    ((entry) => ({ ...entry, args: [...(entry['args'] as string[]), ...(second ? ['--start-delay-ms', '3600000', '--pid-file', join(dir.path, 'down.pid')] : [])] }))(
      fixtureServer('down', dir.tools('down', [{ name: 'held', echo: true }])),
    ),
  ],
  agent_tokens: [{ name: 'attacker', token: TOKEN, allowed_servers: ['open', 'review', 'vault', 'off', 'down'] }],
});

beforeAll(async () => {
  dir = new TempDir();
  dir.tools('review', [{ name: 'stable', echo: true }, { name: 'drifting', description: 'v1', echo: true }]);
  // First run: every server lists its baseline and is approved, `off` and `down` included.
  const first = await startTestGateway(dir, config(false));
  await waitForState(first.gateway, (s) => ['open', 'review', 'other', 'off', 'down'].every((name) => serverReady(name)(s)));
  await first.close();
  // Between the runs the review upstream redefines one tool (rug-pull) and adds one; `down` will hang at start.
  dir.tools('review', [{ name: 'stable', echo: true }, { name: 'drifting', description: 'v2: now also deletes things', echo: true }, { name: 'newcomer', echo: true }]);
  gw = await startTestGateway(dir, config(true));
  operator = restClient(gw.gateway.origin ?? '');
  agent = restClient(gw.gateway.origin ?? '', { bearer: TOKEN });
  await waitForState(gw.gateway, (s) => serverReady('open')(s) && serverReady('review')(s) && s.snapshot.servers.get('review')?.approvals.get('newcomer') !== undefined);
  expect((await operator.call('POST', '/api/v1/tools/open:blocked/disable')).status).toBe(200);
  // Also wait for every hash the world holds: the quarantined server's comes only with its listing, which a loaded
  // machine may not have answered yet when the other servers are ready.
  const snapshot = await waitForState(
    gw.gateway,
    (s) => s.snapshot.servers.get('open')?.approvals.get('blocked')?.user_disabled === true && TARGET_NAMES.every((t) => t === 'unconfigured' || storedHash(s, t) !== undefined),
  );
  for (const target of TARGET_NAMES) {
    const hash = storedHash(snapshot, target);
    if (hash !== undefined) stored.set(target, hash);
  }
});

/** The hash a target's pin is compared with in this state: the live definition's, else the approval record's. */
function storedHash(state: PublishedState, target: Target): string | undefined {
  const [server, tool] = TARGETS[target].split(':') as [string, string];
  const entry = state.snapshot.servers.get(server);
  const approval = entry?.approvals.get(tool);
  return entry?.tools.get(tool)?.hash ?? approval?.current_hash ?? approval?.approved_hash;
}

afterAll(async () => {
  // The held upstream's start ends first, so the gateway's shutdown does not wait on it.
  const pid = readCount(join(dir.path, 'down.pid'));
  if (pid > 0) {
    try {
      process.kill(pid, 'SIGUSR1');
    } catch {
      // already gone
    }
  }
  await gw?.close();
  dir?.remove();
});

const HEX = /^sha256\/v1:([0-9a-f]{64})$/;
const hexOf = (hash: string) => HEX.exec(hash)?.[1] ?? '';
const randomHex = fc.stringMatching(/^[0-9a-f]{64}$/);

/** A guess for a target whose true hash is `truth` (undefined: the gateway holds none). */
function guess(truth: string | undefined): fc.Arbitrary<{ kind: string; pin: string }> {
  const hex = truth === undefined ? undefined : hexOf(truth);
  const kinds: fc.Arbitrary<{ kind: string; pin: string }>[] = [
    randomHex.map((h) => ({ kind: 'random', pin: `sha256/v1:${h}` })),
    fc.string({ maxLength: 40 }).map((s) => ({ kind: 'unparseable', pin: `x${s}` })),
  ];
  if (hex !== undefined) {
    kinds.push(
      fc.constant({ kind: 'true', pin: `sha256/v1:${hex}` }),
      fc.nat(63).map((i) => ({ kind: 'one-off', pin: `sha256/v1:${hex.slice(0, i)}${hex[i] === '0' ? '1' : '0'}${hex.slice(i + 1)}` })),
      // Exactly the first n digits right: the digit after them is changed, or a random tail could
      // complete the true hash (1 in 16 at n = 63), which is a right guess, not a prefix.
      fc.tuple(fc.integer({ min: 8, max: 63 }), randomHex).map(([n, h]) => ({ kind: 'prefix', pin: `sha256/v1:${hex.slice(0, n)}${hex[n] === '0' ? '1' : '0'}${h.slice(n + 1)}` })),
      fc.constant({ kind: 'other-version', pin: `sha256/v2:${hex}` }),
    );
  }
  return fc.oneof(...kinds);
}

/** The verdict of one tool without the fields that differ between two calls of the same request. */
type Verdict = Record<string, unknown>;

async function riderVerdicts(pins: Partial<Record<Target, string>>): Promise<{ verdicts: Map<Target, Verdict>; text: string }> {
  const rider = { tools: TARGET_NAMES.map((t) => (pins[t] === undefined ? { id: TARGETS[t] } : { id: TARGETS[t], pin_hash: pins[t] })) };
  const answer: RawAnswer = await withRawSession(gw.url, 'modern', { token: TOKEN, capabilities: negotiating('modern', PINS) }, (s) => s.request('tools/list', { _meta: { [EXTENSION_ID]: rider } }));
  const facet = answer.result?._meta?.[EXTENSION_ID];
  const checked = checkValue(strictValidators.PinnedResponseFacet, facet);
  if (!checked.ok) throw new Error(`not a PinnedResponseFacet: ${JSON.stringify(checked.issues)}\n${answer.text.slice(0, 2000)}`);
  return { verdicts: new Map(TARGET_NAMES.map((t, i) => [t, checked.value.tools[i] as unknown as Verdict])), text: JSON.stringify(facet) };
}

async function restVerdicts(pins: Partial<Record<Target, string>>): Promise<{ verdicts: Map<Target, Verdict>; text: string }> {
  const body = { tools: TARGET_NAMES.map((t) => (pins[t] === undefined ? { id: TARGETS[t] } : { id: TARGETS[t], pin_hash: pins[t] })) };
  const answer = await agent.preflight(body);
  expect(answer.status).toBe(200);
  return { verdicts: new Map(TARGET_NAMES.map((t, i) => [t, answer.body.tools[i] as Verdict])), text: answer.text };
}

/** No window of 16 hex digits of any stored hash appears in `text`. */
function disclosedHashParts(text: string): string[] {
  const found: string[] = [];
  for (const [target, hash] of stored) {
    const hex = hexOf(hash);
    for (let i = 0; i + 16 <= hex.length; i += 8) if (text.includes(hex.slice(i, i + 16))) found.push(`${target}@${i}`);
  }
  return found;
}

type Surface = (pins: Partial<Record<Target, string>>) => Promise<{ verdicts: Map<Target, Verdict>; text: string }>;

/**
 * The property both surfaces are held to: for every target and every guess, the answer is the answer
 * without a pin (hidden tools, and the served tool's right guess), or the one answer every wrong
 * guess of that format gets (the served tool); and no answer carries a part of a stored hash.
 */
async function resistsGuessing(surface: Surface, hidden: readonly Target[], runs: number): Promise<void> {
  const unpinned = (await surface({})).verdicts;
  const wrong = (await surface({ served: `sha256/v1:${'0'.repeat(64)}` })).verdicts.get('served');
  const garbled = (await surface({ served: 'not-a-hash' })).verdicts.get('served');
  const otherVersion = (await surface({ served: `sha256/v2:${'0'.repeat(64)}` })).verdicts.get('served');
  expect(wrong?.['reason']).toBe('hash_mismatch');
  const plans = fc.record(Object.fromEntries(TARGET_NAMES.map((t) => [t, guess(stored.get(t))])) as Record<Target, fc.Arbitrary<{ kind: string; pin: string }>>);
  await fc.assert(
    fc.asyncProperty(plans, async (plan) => {
      const { verdicts, text } = await surface(Object.fromEntries(TARGET_NAMES.map((t) => [t, plan[t].pin])));
      expect(disclosedHashParts(text)).toEqual([]);
      for (const target of hidden) expect(verdicts.get(target), `${target} with a ${plan[target].kind} guess`).toEqual(unpinned.get(target));
      const served = plan.served;
      const expected = served.kind === 'true' ? unpinned.get('served') : served.kind === 'unparseable' ? garbled : served.kind === 'other-version' ? otherVersion : wrong;
      expect(verdicts.get('served'), `the served tool with a ${served.kind} guess`).toEqual(expected);
    }),
    { numRuns: runs },
  );
}

describe('the world the attack runs in', () => {
  it('has each target in the state the record describes, and a stored hash for every tool the gateway knows', async () => {
    const { verdicts } = await restVerdicts({});
    const reasons = Object.fromEntries(TARGET_NAMES.map((t) => [t, verdicts.get(t)?.['reason'] ?? verdicts.get(t)?.['status']]));
    expect(reasons).toEqual({
      served: 'ready',
      userBlocked: 'tool_blocked_by_user',
      configDenied: 'tool_denied_by_config',
      changed: 'tool_changed',
      pending: 'tool_pending_approval',
      quarantined: 'server_quarantined',
      disabled: 'server_disabled',
      outOfScope: 'not_found',
      unconfigured: 'not_found',
      notConnected: 'server_initializing',
    });
    expect(TARGET_NAMES.filter((t) => !HEX.test(stored.get(t) ?? ''))).toEqual(['unconfigured']);
  });
});

describe('the attack: guessing pins to learn hashes the agent tier does not show', () => {
  it('in band, with the pins prototype: a pin changes only the served tool\'s answer, and only by right or wrong', async () => {
    await resistsGuessing(riderVerdicts, HIDDEN, 25);
  });

  it('REST at the agent tier resists it on every hidden tool but the not-connected one', async () => {
    await resistsGuessing(restVerdicts, HIDDEN.filter((t) => t !== 'notConnected'), 15);
  });

  it('REST at the agent tier compares a pin before the connection verdict (gate 10 before 11-13): on a server not connected since the start it confirms the approved hash (record 0003, finding)', async () => {
    const truth = stored.get('notConnected')!;
    const right = (await restVerdicts({ notConnected: truth })).verdicts.get('notConnected');
    const wrong = (await restVerdicts({ notConnected: `sha256/v1:${'0'.repeat(64)}` })).verdicts.get('notConnected');
    expect(right?.['reason']).toBe('server_initializing');
    expect(wrong?.['reason']).toBe('hash_mismatch');
    // In band the same two guesses are indistinguishable.
    const inBand = [(await riderVerdicts({ notConnected: truth })).verdicts.get('notConnected'), (await riderVerdicts({ notConnected: `sha256/v1:${'0'.repeat(64)}` })).verdicts.get('notConnected')];
    expect(inBand[0]).toEqual(inBand[1]);
    expect(inBand[0]?.['reason']).toBe('server_initializing');
  });
});

describe('the pins prototype (declared experimental.pins, enabled by extension_experiments)', () => {
  it('answers the served tool as REST answers an agent, right pin, wrong pin and unparseable pin alike', async () => {
    for (const pin of [stored.get('served')!, `sha256/v1:${'f'.repeat(64)}`, 'sha256/v9', `sha256/v2:${hexOf(stored.get('served')!)}`]) {
      const inBand = (await riderVerdicts({ served: pin })).verdicts.get('served');
      const rest = (await restVerdicts({ served: pin })).verdicts.get('served');
      expect(inBand, pin).toEqual(rest);
    }
  });

  it('refuses two different pins for one id as a malformed rider (-32602, nothing recorded)', async () => {
    const rider = { tools: [{ id: 'open:echo', pin_hash: stored.get('served') }, { id: ' open:echo ', pin_hash: `sha256/v1:${'0'.repeat(64)}` }] };
    const answer = await withRawSession(gw.url, 'legacy', { token: TOKEN, capabilities: negotiating('legacy', PINS) }, (s) => s.request('tools/list', { _meta: { [EXTENSION_ID]: rider } }));
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('open:echo');
    expect(answer.error?.data).toMatchObject({ code: 'conflicting_pins', path: '/tools/1' });
  });

  it('records the verdict it answered (hash_mismatch in the activity record, never a hash)', async () => {
    const { text } = await riderVerdicts({ served: `sha256/v1:${'0'.repeat(64)}` });
    const requestId = (JSON.parse(text) as { request_id: string }).request_id;
    const records = (await operator.call('GET', `/api/v1/activity?request_id=${requestId}`)).body.records as { surface: string; metadata: { reasons: Record<string, number> } }[];
    expect(records).toHaveLength(1);
    expect(records[0]?.surface).toBe('mcp-rider');
    expect(records[0]?.metadata.reasons['hash_mismatch']).toBe(1);
    expect(disclosedHashParts(JSON.stringify(records))).toEqual([]);
  });

  it('is off for a client that does not ask: pin_hash stays reserved (-32602), as in settings version 1', async () => {
    const rider = { tools: [{ id: 'open:echo', pin_hash: stored.get('served') }] };
    for (const capabilities of [negotiating('modern'), negotiating('modern', { version: 1, experimental: { pins: false } }), negotiating('modern', { version: 1, experimental: { ping_carrier: true } })]) {
      const answer = await withRawSession(gw.url, 'modern', { token: TOKEN, capabilities }, (s) => s.request('tools/list', { _meta: { [EXTENSION_ID]: rider } }));
      expect(answer.error?.code, JSON.stringify(capabilities)).toBe(-32602);
      expect(answer.error?.message).toContain('tools[0].pin_hash is reserved in settings version 1');
    }
  });
});

describe('extension_experiments in the gateway config', () => {
  it('accepts each prototype the extension has, and refuses a name it does not (a typo is a config error, not a silently absent prototype)', () => {
    expect(checkValue(strictValidators.GatewayConfig, { extension_experiments: [...EXTENSION_EXPERIMENTS], servers: [] }).ok).toBe(true);
    for (const name of ['pin', 'ping', '__proto__']) {
      expect(checkValue(strictValidators.GatewayConfig, { extension_experiments: [name], servers: [] }).ok, name).toBe(false);
    }
  });
});
