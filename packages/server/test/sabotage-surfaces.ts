// One driver per surface of the sabotage matrix: ask one tool ID the way that surface is asked,
// check the payload against the strict generated validator, and report the cell it observed.
// The CLI's tests add their own drivers (cli, cli_in_band) with the same signature.
import { checkValue, EXTENSION_ID, strictValidators, VERDICT_EXIT_CODES, type Policy, type Verdict } from '@mcpproxy/schema';
import type { ValidateFunction } from 'ajv';
import { negotiating, withRawSession, type RawAnswer, type RawEra, type RawSession } from './raw-mcp-session.js';
import type { SabotageWorld } from './sabotage-world.js';

/** Who asks: an agent token of the world (by name) and/or a profile. */
export interface MatrixCaller {
  readonly token?: string;
  readonly profile?: string;
}

export interface MatrixCall {
  readonly tool: string;
  readonly policy?: Policy;
  /** A pin as sent (the runner has already replaced `$current`). */
  readonly pin?: string;
  readonly caller: MatrixCaller;
}

export interface ObservedVerdict {
  readonly status: string;
  readonly reason?: string;
  readonly retryable?: boolean;
  readonly action?: string;
  readonly verdict?: string;
  readonly exit_code?: number;
}

export type ObservedCell = ObservedVerdict | { readonly error: number; readonly message?: string } | { readonly tool_error: true; readonly message?: string } | { readonly http: number };

export type SurfaceDriver = (world: SabotageWorld, call: MatrixCall) => Promise<ObservedCell>;

/** The token an agent-tier REST call uses when the row names none (scope: every server). */
export const DEFAULT_AGENT_TOKEN = 'agent-all';

export const IN_PROCESS_SURFACES = {
  rest_operator: (world, call) => restPreflight(world, call, 'operator'),
  rest_agent: (world, call) => restPreflight(world, call, 'agent'),
  rider_2025: (world, call) => rider(world, call, 'legacy'),
  rider_2026: (world, call) => rider(world, call, 'modern'),
  check: (world, call) => checkMode(world, call),
  resolve: (world, call) => resolve(world, call),
} as const satisfies Record<string, SurfaceDriver>;

export type InProcessSurface = keyof typeof IN_PROCESS_SURFACES;

async function restPreflight(world: SabotageWorld, call: MatrixCall, tier: 'operator' | 'agent'): Promise<ObservedCell> {
  const token = world.tokens[call.caller.token ?? DEFAULT_AGENT_TOKEN];
  if (tier === 'agent' && token === undefined) throw new Error(`no token ${call.caller.token ?? DEFAULT_AGENT_TOKEN} in the world`);
  const response = await fetch(`${world.origin}/api/v1/preflight`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(tier === 'operator' ? { 'x-api-key': world.adminKey } : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({
      tools: [{ id: call.tool, ...(call.pin === undefined ? {} : { pin_hash: call.pin }) }],
      ...(call.policy === undefined ? {} : { policy: call.policy }),
      ...(call.caller.profile === undefined ? {} : { profile: call.caller.profile }),
    }),
  });
  const body = (await response.json()) as unknown;
  if (response.status !== 200) return { http: response.status };
  const strict = tier === 'operator' ? strictValidators.RestPreflightResponse : strictValidators.RestAgentPreflightResponse;
  const checked = valid(strict, body, `REST ${tier}`) as { verdict: Verdict; tools: ObservedVerdict[] };
  return observed(checked.tools[0], checked.verdict);
}

async function rider(world: SabotageWorld, call: MatrixCall, era: RawEra): Promise<ObservedCell> {
  const riderValue = { tools: [{ id: call.tool, ...(call.pin === undefined ? {} : { pin_hash: call.pin }) }], ...(call.policy === undefined ? {} : { policy: call.policy }) };
  const answer = await inBand(world, call.caller, era, (s) => s.request('tools/list', { _meta: { [EXTENSION_ID]: riderValue } }));
  if (answer.error !== undefined) return { error: answer.error.code, message: answer.error.message };
  const facet = valid(strictValidators.ResponseFacet, answer.result?._meta?.[EXTENSION_ID], `rider ${era}`) as { verdict: Verdict; tools: ObservedVerdict[] };
  return observed(facet.tools[0], facet.verdict);
}

async function checkMode(world: SabotageWorld, call: MatrixCall): Promise<ObservedCell> {
  const args = {
    tool_ids: [call.tool],
    check: true,
    ...(call.policy === undefined ? {} : { filters: call.policy }),
    ...(call.pin === undefined ? {} : { expect_hashes: { [call.tool]: call.pin } }),
  };
  const answer = await inBand(world, call.caller, 'modern', (s) => s.request('tools/call', { name: 'describe_tool', arguments: args }));
  if (answer.error !== undefined) return { error: answer.error.code, message: answer.error.message };
  const text = (answer.result?.content?.[0]?.text as string | undefined) ?? '';
  if (answer.result?.isError === true) {
    if (!text.endsWith('no verdict was computed')) throw new Error(`check mode: a tool error that does not say no verdict was computed: ${text}`);
    return { tool_error: true, message: text };
  }
  const result = valid(strictValidators.CheckModeResult, JSON.parse(text), 'check mode') as { verdict: Verdict; results: ObservedVerdict[] };
  return observed(result.results[0], result.verdict);
}

async function resolve(world: SabotageWorld, call: MatrixCall): Promise<ObservedCell> {
  const meta = { ...(call.policy === undefined ? {} : { policy: call.policy }), ...(call.pin === undefined ? {} : { pin_hash: call.pin }) };
  const params = { name: call.tool, arguments: {}, ...(Object.keys(meta).length === 0 ? {} : { _meta: { [EXTENSION_ID]: meta } }) };
  const answer = await inBand(world, call.caller, 'modern', (s) => s.request('tools/resolve', params));
  if (answer.error !== undefined) return { error: answer.error.code, message: answer.error.message };
  valid(strictValidators.ShapeBResponse, JSON.parse(answer.text), 'resolve envelope');
  const facet = valid(strictValidators.ResolveFacet, answer.result?.tool?._meta?.[EXTENSION_ID], 'resolve facet') as ObservedVerdict;
  return observed(facet, undefined);
}

function inBand(world: SabotageWorld, caller: MatrixCaller, era: RawEra, ask: (session: RawSession) => Promise<RawAnswer>): Promise<RawAnswer> {
  const url = caller.profile === undefined ? world.mcpUrl : `${world.mcpUrl}/p/${caller.profile}`;
  const token = caller.token === undefined ? undefined : world.tokens[caller.token];
  if (caller.token !== undefined && token === undefined) throw new Error(`no token ${caller.token} in the world`);
  return withRawSession(url, era, { capabilities: negotiating(era), ...(token === undefined ? {} : { token }) }, ask);
}

function valid(validator: ValidateFunction, value: unknown, what: string): unknown {
  const checked = checkValue(validator, value);
  if (!checked.ok) throw new Error(`${what}: the payload breaks the strict schema: ${JSON.stringify(checked.issues)}\n${JSON.stringify(value)}`);
  return checked.value;
}

/** The matrix's columns of one per-tool result; a set verdict adds the exit code a client maps it to. */
function observed(result: ObservedVerdict | undefined, verdict: Verdict | undefined): ObservedVerdict {
  if (result === undefined) throw new Error('no per-tool result');
  return {
    status: result.status,
    ...(result.reason === undefined ? {} : { reason: result.reason }),
    ...(result.retryable === undefined ? {} : { retryable: result.retryable }),
    ...(result.action === undefined ? {} : { action: result.action }),
    ...(verdict === undefined ? {} : { verdict, exit_code: VERDICT_EXIT_CODES[verdict] }),
  };
}
