// describe_tool check mode (preflight-facts section 9) against the real gateway and a real fixture
// upstream, through SDK clients on both revisions: the result JSON, the exact error wording, tool
// errors that say no verdict was computed, the agent tier, and the activity record with the raw arguments.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkValue, strictValidators, type CheckModeResult } from '@mcpproxy/schema';
import type { Client } from '@modelcontextprotocol/client';
import { connectClient, ERAS, fixtureServer, serverReady, startTestGateway, TempDir, toolText, waitForState, type TestGateway } from './gateway-harness.js';
import { ADMIN_KEY, restClient, type RestClient } from './rest-client.js';

const SCOPED_TOKEN = 'scoped-token-for-check-tests';

let dir: TempDir;
let gw: TestGateway;
let rest: RestClient;

beforeAll(async () => {
  dir = new TempDir();
  const alpha = dir.tools('alpha', [
    { name: 'read', echo: true, annotations: { readOnlyHint: true } },
    { name: 'write', echo: true, annotations: { readOnlyHint: false, destructiveHint: true } },
  ]);
  const beta = dir.tools('beta', [{ name: 'x', echo: true }]);
  gw = await startTestGateway(dir, {
    api_key: ADMIN_KEY,
    servers: [fixtureServer('alpha', alpha), fixtureServer('beta', beta)],
    agent_tokens: [{ name: 'scoped', token: SCOPED_TOKEN, allowed_servers: ['alpha'] }],
  });
  await waitForState(gw.gateway, (s) => serverReady('alpha')(s) && serverReady('beta')(s));
  rest = restClient(gw.gateway.origin ?? '');
});

afterAll(async () => {
  await gw?.close();
  dir?.remove();
});

function strictResult(text: string): CheckModeResult {
  const checked = checkValue(strictValidators.CheckModeResult, JSON.parse(text));
  if (!checked.ok) throw new Error(`check-mode result breaks the strict schema: ${JSON.stringify(checked.issues)}\n${text}`);
  return checked.value;
}

async function preflightRecords(): Promise<number> {
  return ((await rest.call('GET', '/api/v1/activity?type=preflight&limit=1000')).body as { records: unknown[] }).records.length;
}

describe.each(ERAS)('check mode on %s', (era) => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(gw.url, era);
  });
  afterAll(async () => {
    await client?.close();
  });

  const check = (args: Record<string, unknown>) => client.callTool({ name: 'describe_tool', arguments: args });

  it('answers { verdict, checked_at, request_id, results } as JSON text: verdicts only, never a hash, schema or definition', async () => {
    const result = await check({ tool_ids: ['alpha:read', ' alpha:read', 'alpha:write', 'beta:x', 'alpha:rea', 'nocolon'], check: true });
    expect(result.isError).toBeFalsy();
    expect(result.content).toHaveLength(1);
    const text = toolText(result);
    const body = strictResult(text);
    expect(Object.keys(body)).toEqual(['verdict', 'checked_at', 'request_id', 'results']);
    expect(body.verdict).toBe('unknown_ids');
    expect(body.results.map((r) => [r.id, r.reason ?? r.status])).toEqual([
      ['alpha:read', 'ready'],
      ['alpha:write', 'ready'],
      ['beta:x', 'ready'],
      ['alpha:rea', 'not_found'],
      ['nocolon', 'not_found'],
    ]);
    expect(body.results[3]?.did_you_mean).toEqual(['alpha:read']);
    expect(body.results[4]?.detail).toBe('Malformed tool id: expected the format <server>:<tool>.');
    expect(text).not.toMatch(/sha256|inputSchema|description/);
  });

  it('applies filters as the annotation policy', async () => {
    const body = strictResult(toolText(await check({ tool_ids: ['alpha:read', 'alpha:write', 'beta:x'], check: true, filters: { read_only_only: true } })));
    expect(body.results.map((r) => r.reason ?? r.status)).toEqual(['ready', 'policy_filtered', 'missing_annotation']);
    expect(body.verdict).toBe('blocked');
    const destructive = strictResult(toolText(await check({ tool_ids: ['alpha:write'], check: true, filters: { exclude_destructive: true } })));
    expect(destructive.results[0]).toMatchObject({ reason: 'policy_filtered', retryable: false });
    expect(destructive.results[0]?.action).toBeUndefined();
  });

  it('writes the activity record with surface mcp-check and the raw arguments', async () => {
    const args = { tool_ids: ['alpha:read', 'alpha:read '], check: true, filters: { exclude_open_world: true } };
    const body = strictResult(toolText(await check(args)));
    const records = (await rest.call('GET', `/api/v1/activity?request_id=${body.request_id}`)).body.records as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ type: 'preflight', surface: 'mcp-check', request_id: body.request_id });
    expect(records[0]?.['metadata']).toMatchObject({ surface: 'mcp-check', arguments: args, ids_count: 1, verdict: body.verdict });
  });

  it('caps the raw list at 50 (duplicates count), and answers 50 duplicates with one result', async () => {
    const fifty = await check({ tool_ids: Array.from({ length: 50 }, () => 'alpha:read'), check: true });
    expect(strictResult(toolText(fifty)).results).toEqual([{ id: 'alpha:read', status: 'ready' }]);
    const fiftyOne = await check({ tool_ids: Array.from({ length: 51 }, () => 'alpha:read'), check: true });
    expect(fiftyOne.isError).toBe(true);
    expect(toolText(fiftyOne)).toBe('describe_tool: too many tool_ids: 51 (max 50 with check:true); no verdict was computed');
  });

  it.each([
    ['no ids', { tool_ids: [], check: true }, 'provide 1-50 tool ids'],
    ['tool_ids missing', { check: true }, 'provide 1-50 tool ids'],
    ['tool_ids not a list', { tool_ids: 'alpha:read', check: true }, 'tool_ids must be an array'],
    ['an id that is not a string', { tool_ids: ['alpha:read', 7], check: true }, 'tool_ids[1] must be a string'],
    ['filters without check', { tool_ids: ['alpha:read'], filters: { read_only_only: true } }, 'filters requires check: true'],
    ['filters with check: false', { tool_ids: ['alpha:read'], check: false, filters: {} }, 'filters requires check: true'],
    ['an unknown argument', { tool_ids: ['alpha:read'], check: true, verbose: true }, 'unknown argument: verbose'],
    ['an unknown filter', { tool_ids: ['alpha:read'], check: true, filters: { read_only: true } }, 'unknown filter: read_only'],
    ['a filter that is not a boolean', { tool_ids: ['alpha:read'], check: true, filters: { read_only_only: 'true' } }, 'filters.read_only_only must be a boolean'],
    ['filters that are not an object', { tool_ids: ['alpha:read'], check: true, filters: [] }, 'filters must be an object'],
    ['check that is not a boolean', { tool_ids: ['alpha:read'], check: 'true' }, 'check must be a boolean'],
    ['expect_hashes as a map', { tool_ids: ['alpha:read'], check: true, expect_hashes: { 'alpha:read': `sha256/v1:${'0'.repeat(64)}` } }, 'expect_hashes is not accepted in check mode (hash pinning is REST-only)'],
    ['expect_hashes as a list', { tool_ids: ['alpha:read'], check: true, expect_hashes: [] }, 'expect_hashes is not accepted in check mode (hash pinning is REST-only)'],
    ['expect_hashes as null', { tool_ids: ['alpha:read'], check: true, expect_hashes: null }, 'expect_hashes is not accepted in check mode (hash pinning is REST-only)'],
  ])('refuses %s with a tool error that says no verdict was computed', async (_what, args, message) => {
    const before = await preflightRecords();
    const result = await check(args);
    expect(result.isError).toBe(true);
    expect(toolText(result)).toBe(`describe_tool: ${message}; no verdict was computed`);
    expect(await preflightRecords()).toBe(before);
  });

  it('evaluates at the agent tier with the session scope, whatever the credential', async () => {
    const scoped = await connectClient(gw.url, era, SCOPED_TOKEN);
    try {
      const body = strictResult(toolText(await scoped.callTool({ name: 'describe_tool', arguments: { tool_ids: ['beta:x', 'ghost:x', 'alpha:read'], check: true } })));
      expect(body.results.map((r) => r.reason ?? r.status)).toEqual(['not_found', 'not_found', 'ready']);
      expect(body.results.every((r) => r.did_you_mean === undefined)).toBe(true);
    } finally {
      await scoped.close();
    }
  });
});
