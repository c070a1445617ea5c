// Parity: for every state of the sabotage matrix, REST at the agent tier, the rider on both
// revisions and describe_tool check mode return identical per-tool results, field by field, and
// the same set verdict; the tools/resolve facet agrees on the fields it carries. What may differ is
// named below and nowhere else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkValue, EXTENSION_ID, strictValidators } from '@mcpproxy/schema';
import { negotiating, withRawSession, type RawAnswer, type RawEra } from './raw-mcp-session.js';
import { loadMatrix, startMatrixWorld } from './sabotage-matrix.js';
import { DEFAULT_AGENT_TOKEN, type MatrixCaller } from './sabotage-surfaces.js';
import type { SabotageWorld } from './sabotage-world.js';

/** The per-tool fields every surface must agree on, exactly. */
const PARITY_FIELDS = ['id', 'status', 'reason', 'retryable', 'action', 'detail', 'remediation', 'did_you_mean'] as const;
/** The fields the resolve facet carries (no id: the tool names itself; no did_you_mean: unknown is -32602). */
const FACET_FIELDS = ['status', 'reason', 'retryable', 'action', 'detail', 'remediation'] as const;
/**
 * Named exclusions: what may differ between two answers about the same state.
 *  - checked_at, request_id: every evaluation has its own (set level).
 *  - waited_ms: REST only, and only when wait_ms was asked (set level; never asked here).
 *  - hash: operator tier only (per tool); asserted absent here, since every surface is at the agent tier.
 */
const SET_EXCLUSIONS = ['checked_at', 'request_id', 'waited_ms'] as const;
const TOOL_EXCLUSIONS = ['hash'] as const;

type ToolRecord = Record<string, unknown>;
interface SetAnswer {
  readonly verdict: string;
  readonly tools: readonly ToolRecord[];
}

const matrix = loadMatrix();

/** The matrix's states grouped by who asks and with which policy (pins are REST-only: not part of parity). */
const groups = (() => {
  const byKey = new Map<string, { caller: MatrixCaller; policy: unknown; ids: string[] }>();
  for (const row of matrix.rows) {
    if (row.pin !== undefined) continue;
    const caller = row.caller ?? {};
    const key = JSON.stringify([caller, row.policy ?? null]);
    const group = byKey.get(key) ?? { caller, policy: row.policy, ids: [] };
    if (!group.ids.includes(row.tool)) group.ids.push(row.tool);
    byKey.set(key, group);
  }
  return [...byKey.values()];
})();

let world: SabotageWorld;
beforeAll(async () => {
  world = await startMatrixWorld(matrix);
}, 90_000);
afterAll(async () => {
  await world?.close();
});

function project(record: ToolRecord, fields: readonly string[]): ToolRecord {
  return Object.fromEntries(fields.filter((f) => record[f] !== undefined).map((f) => [f, record[f]]));
}

/** Every key of a surface's answer is either compared or a named exclusion. */
function assertOnlyKnownKeys(answer: Record<string, unknown>, surface: string): void {
  for (const key of Object.keys(answer)) expect(['verdict', 'tools', 'results', ...SET_EXCLUSIONS], `${surface}: set field ${key}`).toContain(key);
  const tools = (answer['tools'] ?? answer['results']) as ToolRecord[];
  for (const tool of tools) {
    for (const key of Object.keys(tool)) expect([...PARITY_FIELDS, ...TOOL_EXCLUSIONS], `${surface}: tool field ${key}`).toContain(key);
    expect(tool['hash'], `${surface}: no hash at the agent tier`).toBeUndefined();
  }
}

async function restAgent(caller: MatrixCaller, ids: readonly string[], policy: unknown): Promise<SetAnswer> {
  const response = await fetch(`${world.origin}/api/v1/preflight`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${world.tokens[caller.token ?? DEFAULT_AGENT_TOKEN]}` },
    body: JSON.stringify({ tools: ids.map((id) => ({ id })), ...(policy === undefined ? {} : { policy }), ...(caller.profile === undefined ? {} : { profile: caller.profile }) }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(body)).toBe(200);
  expect(checkValue(strictValidators.RestAgentPreflightResponse, body).ok).toBe(true);
  assertOnlyKnownKeys(body, 'rest_agent');
  return { verdict: body['verdict'] as string, tools: body['tools'] as ToolRecord[] };
}

function inBand(caller: MatrixCaller, era: RawEra, method: string, params: Record<string, unknown>): Promise<RawAnswer> {
  const url = caller.profile === undefined ? world.mcpUrl : `${world.mcpUrl}/p/${caller.profile}`;
  const token = caller.token === undefined ? undefined : world.tokens[caller.token];
  return withRawSession(url, era, { capabilities: negotiating(era), ...(token === undefined ? {} : { token }) }, (session) => session.request(method, params));
}

async function rider(caller: MatrixCaller, era: RawEra, ids: readonly string[], policy: unknown): Promise<SetAnswer> {
  const answer = await inBand(caller, era, 'tools/list', { _meta: { [EXTENSION_ID]: { tools: ids.map((id) => ({ id })), ...(policy === undefined ? {} : { policy }) } } });
  const facet = answer.result?._meta?.[EXTENSION_ID] as Record<string, unknown>;
  expect(checkValue(strictValidators.ResponseFacet, facet).ok, JSON.stringify(answer.error ?? facet)).toBe(true);
  assertOnlyKnownKeys(facet, `rider ${era}`);
  return { verdict: facet['verdict'] as string, tools: facet['tools'] as ToolRecord[] };
}

async function checkMode(caller: MatrixCaller, ids: readonly string[], policy: unknown): Promise<SetAnswer> {
  const answer = await inBand(caller, 'modern', 'tools/call', { name: 'describe_tool', arguments: { tool_ids: ids, check: true, ...(policy === undefined ? {} : { filters: policy }) } });
  expect(answer.result?.isError, answer.text).toBeFalsy();
  const body = JSON.parse(answer.result.content[0].text as string) as Record<string, unknown>;
  expect(checkValue(strictValidators.CheckModeResult, body).ok).toBe(true);
  assertOnlyKnownKeys(body, 'check');
  return { verdict: body['verdict'] as string, tools: body['results'] as ToolRecord[] };
}

describe.each(groups.map((g) => [`${JSON.stringify(g.caller)} policy ${JSON.stringify(g.policy ?? null)}`, g] as const))('caller %s', (_name, group) => {
  it(`REST (agent tier), rider 2025-11-25, rider 2026-07-28 and check mode agree on ${group.ids.length} ids`, async () => {
    const answers = {
      rest_agent: await restAgent(group.caller, group.ids, group.policy),
      rider_2025: await rider(group.caller, 'legacy', group.ids, group.policy),
      rider_2026: await rider(group.caller, 'modern', group.ids, group.policy),
      check: await checkMode(group.caller, group.ids, group.policy),
    };
    const reference = answers.rest_agent;
    expect(reference.tools.map((t) => t['id'])).toEqual(group.ids);
    for (const [surface, answer] of Object.entries(answers)) {
      expect(answer.verdict, surface).toBe(reference.verdict);
      expect(answer.tools.map((t) => project(t, PARITY_FIELDS)), surface).toEqual(reference.tools.map((t) => project(t, PARITY_FIELDS)));
    }
  });

  it('the resolve facet agrees on the fields it carries; a ready tool always resolves', async () => {
    const reference = await rider(group.caller, 'modern', group.ids, group.policy);
    for (const tool of reference.tools) {
      const id = tool['id'] as string;
      const answer = await inBand(group.caller, 'modern', 'tools/resolve', { name: id, arguments: {}, ...(group.policy === undefined ? {} : { _meta: { [EXTENSION_ID]: { policy: group.policy } } }) });
      if (answer.error !== undefined) {
        expect(answer.error.code, id).toBe(-32602);
        expect(tool['status'], `${id}: only an unavailable tool may be unresolvable`).toBe('unavailable');
        continue;
      }
      expect(answer.result.tool._meta[EXTENSION_ID], id).toEqual(project(tool, FACET_FIELDS));
    }
  });
});

it('covers every state the matrix induces without a pin (each caller, policy and tool once)', () => {
  const states = new Set(matrix.rows.filter((r) => r.pin === undefined).map((r) => JSON.stringify([r.caller ?? {}, r.policy ?? null, r.tool])));
  expect(groups.reduce((n, g) => n + g.ids.length, 0)).toBe(states.size);
  expect(states.size).toBeGreaterThanOrEqual(20);
});
