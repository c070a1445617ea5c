// Precedence (preflight-facts.md section 2): for every pair of gates that can hold at once, a
// snapshot where both hold gives the earlier one, except that a tool unknown on a server that
// is not ready gets the connection verdict. Pairs that cannot hold at once are data below, and
// the test checks that they really cannot (and that every other pair really does).
import { describe, expect, it } from 'vitest';
import { evaluate, prepareSnapshot, type ConnectionState, type Policy } from '../src/index.js';
import { approval, gateway, hashOf, server, tool } from './snapshot-builder.js';

interface State {
  readonly malformed: boolean;
  readonly configured: boolean;
  readonly inScope: boolean;
  readonly quarantined: boolean;
  readonly enabled: boolean;
  readonly indexed: boolean;
  readonly approval: { readonly status: 'approved' | 'pending' | 'changed'; readonly user_disabled: boolean } | undefined;
  readonly enabledTools: readonly string[];
  readonly pin: string | undefined;
  readonly state: ConnectionState;
  readonly saturated: boolean;
  readonly policy: Policy | undefined;
}

const STORED = hashOf('a');
const base: State = {
  malformed: false,
  configured: true,
  inScope: true,
  quarantined: false,
  enabled: true,
  indexed: true,
  approval: undefined,
  enabledTools: [],
  pin: undefined,
  state: 'ready',
  saturated: false,
  policy: undefined,
};

interface Gate {
  readonly name: string;
  readonly code: string;
  make(state: State): State;
  holds(state: State): boolean;
}

const addressed = (state: State): boolean => !state.malformed;
const known = (state: State): boolean => addressed(state) && state.configured;
const record = (state: State): NonNullable<State['approval']> => state.approval ?? { status: 'approved', user_disabled: false };

// In precedence order; the tool has no annotations and the indexed hash is STORED.
const gates: readonly Gate[] = [
  { name: 'malformed id', code: 'not_found', make: (s) => ({ ...s, malformed: true }), holds: (s) => s.malformed },
  { name: '1 not configured', code: 'server_not_configured', make: (s) => ({ ...s, configured: false }), holds: (s) => addressed(s) && !s.configured },
  { name: '2 out of scope', code: 'server_not_in_scope', make: (s) => ({ ...s, inScope: false }), holds: (s) => addressed(s) && !s.inScope },
  { name: '3 quarantined', code: 'server_quarantined', make: (s) => ({ ...s, quarantined: true }), holds: (s) => known(s) && s.quarantined },
  { name: '4 disabled', code: 'server_disabled', make: (s) => ({ ...s, enabled: false }), holds: (s) => known(s) && !s.enabled },
  // On a ready server the current listing alone decides; an approval record keeps a tool in
  // existence only while the server is not ready (then the connection gates answer).
  { name: '5 unknown tool', code: 'not_found', make: (s) => ({ ...s, indexed: false, approval: undefined }), holds: (s) => known(s) && !s.indexed && (s.approval === undefined || s.state === 'ready') },
  { name: '6 denied by config', code: 'tool_denied_by_config', make: (s) => ({ ...s, enabledTools: ['other'] }), holds: (s) => known(s) && s.enabledTools.length > 0 && !s.enabledTools.includes('t') },
  { name: '7 blocked by user', code: 'tool_blocked_by_user', make: (s) => ({ ...s, approval: { ...record(s), user_disabled: true } }), holds: (s) => known(s) && s.approval?.user_disabled === true },
  { name: '8 changed', code: 'tool_changed', make: (s) => ({ ...s, approval: { ...record(s), status: 'changed' } }), holds: (s) => known(s) && s.approval?.status === 'changed' },
  { name: '9 pending', code: 'tool_pending_approval', make: (s) => ({ ...s, approval: { ...record(s), status: 'pending' } }), holds: (s) => known(s) && s.approval?.status === 'pending' },
  { name: '10 pin mismatch', code: 'hash_mismatch', make: (s) => ({ ...s, pin: hashOf('b') }), holds: (s) => known(s) && s.pin !== undefined && !(s.indexed && s.pin === STORED) },
  { name: '11 waiting for login', code: 'oauth_required', make: (s) => ({ ...s, state: 'pending_auth' }), holds: (s) => known(s) && s.state === 'pending_auth' },
  { name: '12 unhealthy', code: 'server_unhealthy', make: (s) => ({ ...s, state: 'error' }), holds: (s) => known(s) && s.state === 'error' },
  { name: '13 initializing', code: 'server_initializing', make: (s) => ({ ...s, state: 'connecting' }), holds: (s) => known(s) && s.state === 'connecting' },
  { name: '13b saturated', code: 'server_saturated', make: (s) => ({ ...s, saturated: true }), holds: (s) => known(s) && (s.indexed || s.approval !== undefined) && s.saturated && s.state === 'ready' },
  { name: '14 annotation policy', code: 'missing_annotation', make: (s) => ({ ...s, policy: { read_only_only: true } }), holds: (s) => known(s) && s.policy?.read_only_only === true },
];

const CONNECTION = ['11 waiting for login', '12 unhealthy', '13 initializing'];
const SERVER_STATE = gates.slice(3).map((gate) => gate.name);

/** Pairs (earlier, later) that cannot hold at once, and why. */
const impossible: readonly (readonly [string, string, string])[] = [
  ...gates.slice(1).map((gate) => ['malformed id', gate.name, 'a malformed id names no server and no tool'] as const),
  ...SERVER_STATE.map((name) => ['1 not configured', name, 'an unconfigured server has no flags, tools, approvals or connection'] as const),
  ['8 changed', '9 pending', 'one approval record has one status'],
  ['11 waiting for login', '12 unhealthy', 'one connection has one state'],
  ['11 waiting for login', '13 initializing', 'one connection has one state'],
  ['12 unhealthy', '13 initializing', 'one connection has one state'],
  ['5 unknown tool', '13b saturated', 'saturation is about calling a tool the server lists'],
  ...CONNECTION.map((name) => [name, '13b saturated', 'saturation means something only on a ready connection'] as const),
];

function evaluateState(state: State): string | undefined {
  const servers = state.configured
    ? [
        server('s', {
          connection: state.saturated ? { state: state.state, saturation: { signal: 'HTTP 429' } } : { state: state.state },
          quarantined: state.quarantined,
          enabled: state.enabled,
          tools: state.indexed ? [tool('t', undefined, STORED)] : [],
          approvals: state.approval === undefined ? [] : [approval('t', state.approval)],
          enabled_tools: state.enabledTools,
        }),
      ]
    : [];
  const requested = { id: state.malformed ? 's t' : 's:t', ...(state.pin === undefined ? {} : { pin: state.pin }) };
  const evaluation = evaluate(
    prepareSnapshot(gateway(servers)),
    state.policy === undefined ? { tools: [requested] } : { tools: [requested], policy: state.policy },
    { tier: 'operator', scope: { allowed_servers: state.inScope ? '*' : ['other'] } },
  );
  return evaluation.tools[0]?.reason;
}

const pairs = gates.flatMap((earlier, at) => gates.slice(at + 1).map((later) => [earlier, later] as const));
const reasonFor = (a: Gate, b: Gate): string | undefined => impossible.find(([x, y]) => x === a.name && y === b.name)?.[2];

describe('gate precedence', () => {
  it.each(gates.map((gate) => [gate.name, gate] as const))('%s alone gives its own code', (_name, gate) => {
    const state = gate.make(base);
    expect(gates.filter((other) => other.holds(state)).map((other) => other.name)).toEqual([gate.name]);
    expect(evaluateState(state)).toBe(gate.code);
  });

  it('lists only pairs of gates that exist', () => {
    for (const [a, b] of impossible) {
      expect(gates.findIndex((gate) => gate.name === a)).toBeLessThan(gates.findIndex((gate) => gate.name === b));
    }
  });

  it.each(pairs.map(([a, b]) => [`${a.name} + ${b.name}`, a, b] as const))('%s', (_name, earlier, later) => {
    const state = later.make(earlier.make(base));
    const why = reasonFor(earlier, later);
    if (why !== undefined) {
      // Listed as impossible: making the later gate hold undoes the earlier one (or vice versa).
      const state2 = earlier.make(later.make(base));
      expect(earlier.holds(state) && later.holds(state)).toBe(false);
      expect(earlier.holds(state2) && later.holds(state2)).toBe(false);
      return;
    }
    expect(earlier.holds(state) && later.holds(state)).toBe(true);
    // The one exception: an unknown tool on a server that is not ready gets the connection verdict.
    const expected = earlier.name === '5 unknown tool' && CONNECTION.includes(later.name) ? later.code : earlier.code;
    expect(evaluateState(state)).toBe(expected);
  });
});
