// fast-check generators of small gateway snapshots, requests and contexts. Pools of names that
// are close to each other (prefixes, one- and two-edit neighbours, non-ASCII and astral
// characters, a ':' inside a tool name, padding) make every gate and suggestion path likely.
import fc from 'fast-check';
import type {
  ApprovalRecord,
  ConnectionState,
  EvaluationContext,
  GatewaySnapshot,
  IndexedTool,
  Policy,
  PreflightRequest,
  RequestedTool,
  Scope,
  ServerConnection,
  ServerSnapshot,
  ToolAnnotations,
  ToolState,
  ToolUnavailability,
} from '../src/index.js';

export const SERVER_POOL = ['a', 'b', 'ab', 'srv', 'sv', 'é', '😀', ' a'] as const;
export const TOOL_POOL = ['t', 'to', 'tool', 'tools', 'tol', 'get', 'get_x', 'x:y', '😀', 'tóol', ' t'] as const;
const STATES: readonly (ConnectionState | undefined)[] = [
  ...(['connecting', 'discovering', 'authenticating', 'pending_auth', 'error', 'disconnected', undefined] as const),
  ...Array.from({ length: 7 }, () => 'ready' as const),
];
const hex = (digit: string): string => digit.repeat(64);
export const HASH_POOL = [`sha256/v1:${hex('a')}`, `sha256/v1:${hex('b')}`, `sha256/v2:${hex('a')}`, `sha256/v1234567890:${hex('a')}`, 'md5:abc', ''] as const;
const PIN_POOL = [...HASH_POOL, `sha256/v10:${hex('a')}`, `sha256/v1:${hex('A')}`, 'garbage'] as const;

export const annotationsArb: fc.Arbitrary<ToolAnnotations> = fc.record(
  { readOnlyHint: fc.boolean(), destructiveHint: fc.boolean(), openWorldHint: fc.boolean(), idempotentHint: fc.boolean() },
  { requiredKeys: [] },
);

const indexedArb = (name: string): fc.Arbitrary<IndexedTool> =>
  fc.tuple(fc.constantFrom(...HASH_POOL), fc.option(annotationsArb, { nil: undefined })).map(([hash, annotations]) =>
    annotations === undefined ? { name, hash } : { name, hash, annotations },
  );

const approvalArb = (tool: string): fc.Arbitrary<ApprovalRecord> =>
  fc
    .record({
      status: fc.constantFrom('approved', 'pending', 'changed'),
      approved_hash: fc.option(fc.constantFrom(...HASH_POOL), { nil: undefined }),
      current_hash: fc.option(fc.constantFrom(...HASH_POOL), { nil: undefined }),
      user_disabled: fc.nat(3).map((n) => n === 0),
    })
    .map(({ status, approved_hash, current_hash, user_disabled }) => ({
      tool,
      status,
      hash_schema_version: 1,
      user_disabled,
      ...(approved_hash === undefined ? {} : { approved_hash }),
      ...(current_hash === undefined ? {} : { current_hash }),
    }));

const connectionArb: fc.Arbitrary<ServerConnection> = fc
  .record({
    state: fc.constantFrom(...STATES),
    last_error: fc.option(fc.oneof(fc.string({ maxLength: 12 }), fc.constant('e'.repeat(1200)), fc.constant('😀'.repeat(1001))), { nil: undefined }),
    diagnostic_action: fc.option(fc.constantFrom('restart', 'login', 'view_logs') as fc.Arbitrary<'restart' | 'login' | 'view_logs'>, { nil: undefined }),
    ever_ready: fc.boolean(),
    // Drawn on any state: a server that is not ready must ignore it.
    saturation: fc.option(
      fc.record({ signal: fc.constantFrom('HTTP 429', 'HTTP 503', 'JSON-RPC error -32000'), retry_after_s: fc.option(fc.nat(86_400), { nil: undefined }) }),
      { nil: undefined, freq: 3 },
    ),
  })
  .map(({ state, last_error, diagnostic_action, ever_ready, saturation }) => ({
    ever_ready,
    ...(state === undefined ? {} : { state }),
    ...(last_error === undefined ? {} : { last_error }),
    ...(diagnostic_action === undefined ? {} : { diagnostic_action }),
    ...(saturation === undefined
      ? {}
      : { saturation: { signal: saturation.signal, ...(saturation.retry_after_s === undefined ? {} : { retry_after_s: saturation.retry_after_s }) } }),
  }));

const toolSubset = fc.subarray([...TOOL_POOL]);

const serverArb = (name: string): fc.Arbitrary<ServerSnapshot> =>
  fc
    .record({
      enabled: fc.nat(7).map((n) => n > 0),
      quarantined: fc.nat(7).map((n) => n === 0),
      connection: connectionArb,
      indexedNames: toolSubset,
      approvalNames: fc.subarray([...TOOL_POOL], { maxLength: 4 }),
      // Names the upstream lists with an unservable definition (never in the index as well).
      invalidNames: fc.subarray([...TOOL_POOL], { maxLength: 2 }),
      enabled_tools: fc.oneof({ weight: 3, arbitrary: fc.constant([] as string[]) }, { weight: 1, arbitrary: fc.subarray([...TOOL_POOL], { maxLength: 4 }) }),
      disabled_tools: fc.subarray([...TOOL_POOL], { maxLength: 1 }),
      auto_approve_tool_changes: fc.boolean(),
    })
    .chain((fields) =>
      fc
        .tuple(fc.tuple(...fields.indexedNames.map(indexedArb)), fc.tuple(...fields.approvalNames.map(approvalArb)))
        .map(([indexed, approvals]) => ({
          name,
          enabled: fields.enabled,
          quarantined: fields.quarantined,
          connection: fields.connection,
          tools: new Map(indexed.map((entry) => [entry.name, entry])),
          approvals: new Map(approvals.map((entry) => [entry.tool, entry])),
          invalid_tools: new Map(fields.invalidNames.filter((tool) => !fields.indexedNames.includes(tool)).map((tool) => [tool, 'inputSchema: expected object'])),
          enabled_tools: fields.enabled_tools,
          disabled_tools: fields.disabled_tools,
          auto_approve_tool_changes: fields.auto_approve_tool_changes,
        })),
    );

export const snapshotArb: fc.Arbitrary<GatewaySnapshot> = fc
  .record({
    names: fc.uniqueArray(fc.constantFrom(...SERVER_POOL), { maxLength: 5 }),
    tool_quarantine: fc.boolean(),
    p1: fc.subarray([...SERVER_POOL, 'c']),
    p2: fc.subarray([...SERVER_POOL]),
  })
  .chain(({ names, tool_quarantine, p1, p2 }) =>
    fc.tuple(...names.map(serverArb)).map((servers) => ({
      version: 1,
      tool_quarantine,
      servers: new Map(servers.map((entry) => [entry.name, entry])),
      profiles: new Map<string, readonly string[]>([
        ['p1', p1],
        ['p2', p2],
      ]),
    })),
  );

const pad = fc.constantFrom('', '', '', '', ' ', '\t');
const idFrom = (servers: fc.Arbitrary<string>, tools: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.tuple(pad, servers, pad, tools, pad).map(([a, server, b, tool, c]) => `${a}${server}${b}:${b}${tool}${c}`);
const poolId = idFrom(fc.constantFrom(...SERVER_POOL, 'c', 'zz', 'srvx'), fc.constantFrom(...TOOL_POOL, 'nope', 'tool1', 'gt', 'toolz'));
const malformedId = fc.oneof(fc.constantFrom('nocolon', ':', 'a:', ' : t', ':t', 'a: '), fc.string({ maxLength: 8 }));

/** IDs mostly naming the snapshot's own servers and tools, so every gate is reached often. */
function idArb(snapshot: GatewaySnapshot): fc.Arbitrary<string> {
  const known: [string, string][] = [];
  for (const [name, server] of snapshot.servers) {
    for (const tool of new Set([...server.tools.keys(), ...server.approvals.keys()])) known.push([name, tool]);
  }
  const names = [...snapshot.servers.keys()];
  const choices: fc.WeightedArbitrary<string>[] = [
    { weight: 2, arbitrary: poolId },
    { weight: 1, arbitrary: malformedId },
  ];
  if (names.length > 0) choices.push({ weight: 3, arbitrary: idFrom(fc.constantFrom(...names), fc.constantFrom(...TOOL_POOL, 'nope', 'toolz')) });
  if (known.length > 0) {
    const pair = fc.constantFrom(...known);
    choices.push({ weight: 8, arbitrary: fc.tuple(pad, pair, pad).map(([a, [server, tool], b]) => `${a}${server}:${tool}${b}`) });
  }
  return fc.oneof(...choices);
}

const pinArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom(...PIN_POOL) },
);

export const policyArb: fc.Arbitrary<Policy> = fc.record(
  { read_only_only: fc.boolean(), exclude_destructive: fc.boolean(), exclude_open_world: fc.boolean() },
  { requiredKeys: [] },
);

export function requestArb(snapshot: GatewaySnapshot): fc.Arbitrary<PreflightRequest> {
  const requested: fc.Arbitrary<RequestedTool> = fc
    .tuple(idArb(snapshot), pinArb)
    .map(([id, pin]) => (pin === undefined ? { id } : { id, pin }));
  return fc
    .tuple(fc.array(requested, { minLength: 1, maxLength: 6 }), fc.option(policyArb, { nil: undefined, freq: 2 }))
    .map(([tools, policy]) => (policy === undefined ? { tools } : { tools, policy }));
}

export const scopeArb: fc.Arbitrary<Scope> = fc
  .record({
    allowed: fc.oneof({ weight: 3, arbitrary: fc.constant('*' as const) }, { weight: 2, arbitrary: fc.subarray([...SERVER_POOL, 'c']) }),
    profile_pin: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('p1', 'p2', 'gone') }),
    active_profile: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('p1', 'p2') }),
  })
  .map(({ allowed, profile_pin, active_profile }) => ({
    allowed_servers: allowed,
    ...(profile_pin === undefined ? {} : { profile_pin }),
    ...(active_profile === undefined ? {} : { active_profile }),
  }));

export const contextArb: fc.Arbitrary<EvaluationContext> = fc
  .tuple(fc.constantFrom('operator', 'agent') as fc.Arbitrary<'operator' | 'agent'>, scopeArb)
  .map(([tier, scope]) => ({ tier, scope }));

/** A snapshot, a request naming mostly its own servers and tools, and a context. */
export const inputArb: fc.Arbitrary<[GatewaySnapshot, PreflightRequest, EvaluationContext]> = snapshotArb.chain((snapshot) =>
  fc.tuple(fc.constant(snapshot), requestArb(snapshot), contextArb),
);

const TOOL_STATE_REASONS = ['server_initializing', 'server_unhealthy', 'tool_blocked_by_user', 'oauth_required', 'server_disabled', 'server_saturated'] as const;
const authorText = fc.option(fc.constantFrom('Warming up.', 'Set SMTP_PASSWORD.', 'x', '{id} is off'), { nil: undefined });

const unavailabilityArb: fc.Arbitrary<ToolUnavailability> = fc
  .record({ reason: fc.constantFrom(...TOOL_STATE_REASONS), restart: fc.boolean(), detail: authorText, remediation: authorText })
  .map(({ reason, restart, detail, remediation }) => ({
    reason,
    ...(reason === 'server_unhealthy' && restart ? { action: 'restart' as const } : {}),
    ...(detail === undefined ? {} : { detail }),
    ...(remediation === undefined ? {} : { remediation }),
  }));

/** A server's own tools (names from TOOL_POOL, a name now and then twice), listed or not, with or without a reason. */
export const toolStatesArb: fc.Arbitrary<ToolState[]> = fc.array(
  fc
    .record({
      name: fc.constantFrom(...TOOL_POOL, 'send_email', 'search', ' search '),
      listed: fc.boolean(),
      annotations: fc.option(annotationsArb, { nil: undefined }),
      unavailable: fc.option(unavailabilityArb, { nil: undefined, freq: 3 }),
    })
    .map(({ name, listed, annotations, unavailable }) => ({
      name,
      listed,
      ...(annotations === undefined ? {} : { annotations }),
      ...(unavailable === undefined ? {} : { unavailable }),
    })),
  { maxLength: 8 },
);

/** A request of plain tool names: the states' own, near misses, padding, a colon now and then. */
export function toolStatesRequestArb(states: readonly ToolState[]): fc.Arbitrary<PreflightRequest> {
  const own = states.map((state) => state.name);
  const name = fc.oneof(
    { weight: own.length === 0 ? 0 : 6, arbitrary: own.length === 0 ? fc.constant('t') : fc.constantFrom(...own) },
    { weight: 3, arbitrary: fc.constantFrom(...TOOL_POOL, 'nope', 'serch', 'send_emial', 'toolz', '') },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
  );
  const id = fc.tuple(pad, name, pad).map(([a, n, b]) => `${a}${n}${b}`);
  return fc
    .tuple(fc.array(id.map((i) => ({ id: i })), { minLength: 1, maxLength: 6 }), fc.option(policyArb, { nil: undefined, freq: 2 }))
    .map(([tools, policy]) => (policy === undefined ? { tools } : { tools, policy }));
}
