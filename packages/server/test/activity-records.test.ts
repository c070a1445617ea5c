// The activity log through a real gateway: every 200 preflight has exactly one complete record
// (strictly valid, matching its answer, never a hash, description or detail) and no 400 has one —
// as a property over generated requests; dispatched tool calls are recorded with their outcome and
// never their arguments; retention by count and age is applied from the config.
import fc from 'fast-check';
import { checkValue, strictValidators } from '@mcpproxy/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { openStore } from '../src/store/store.js';
import { connectClient, fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type FixtureToolSpec, type TestGateway } from './gateway-harness.js';
import { restClient, type RestClient } from './rest-client.js';

const TOKEN = 'activity-agent-secret-0123';
const dir = new TempDir();
let gw: TestGateway;
let operator: RestClient;
let agent: RestClient;
let hash = '';

beforeAll(async () => {
  const tools: (FixtureToolSpec & { delay_ms?: number })[] = [
    { name: 'ok', description: 'DESCRIPTION-MUST-NOT-BE-LOGGED', echo: true, annotations: { readOnlyHint: true } },
    { name: 'bad', error: 'boom' },
    { name: 'slow', echo: true, delay_ms: 5000 },
    { name: 'denied', echo: true },
  ];
  gw = await startTestGateway(dir, {
    tool_call_timeout_ms: 300,
    servers: [fixtureServer('act', dir.tools('act', tools), { disabled_tools: ['denied'] }), fixtureServer('q', dir.tools('q', tools), { quarantined: true })],
    profiles: [{ name: 'only-q', servers: ['q'] }],
    agent_tokens: [{ name: 'agent', token: TOKEN, allowed_servers: ['act'] }],
  });
  await waitForState(gw.gateway, (s) => serverReady('act')(s) && serverReady('q')(s));
  operator = restClient(gw.gateway.origin!);
  agent = restClient(gw.gateway.origin!, { bearer: TOKEN });
  hash = gw.gateway.runtime.current().snapshot.servers.get('act')!.tools.get('ok')!.hash;
});
afterAll(async () => {
  await gw?.close();
  dir.remove();
});

const recordsOf = async (requestId: string) => (await operator.call('GET', `/api/v1/activity?request_id=${requestId}`)).body.records as Record<string, unknown>[];

const POOL = ['act:ok', 'act:bad', 'act:nope', ' act : ok ', 'act:denied', 'q:ok', 'ghost:x', 'malformed', 'act:', 'act:o'];
const optional = <T>(arbitrary: fc.Arbitrary<T>, freq: number) => fc.option(arbitrary, { freq, nil: undefined });
const entry = fc.record({ id: fc.constantFrom(...POOL), pin_hash: optional(fc.constantFrom('GOOD', 'sha256/v1:00', 'garbage'), 4) });
type Entry = { id: string; pin_hash: string | undefined };
const toolLists: fc.Arbitrary<Entry[]> = fc.oneof(
  { weight: 12, arbitrary: fc.array(entry, { minLength: 1, maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constant<Entry[]>([]) },
  { weight: 1, arbitrary: fc.array(entry, { minLength: 101, maxLength: 103 }) },
);
/** Mostly valid requests, with each kind of 400 mixed in. */
const request = fc.record({
  tools: toolLists,
  profile: optional(fc.constantFrom('only-q', 'only-q', 'missing'), 3),
  policy: optional(fc.record({ read_only_only: fc.boolean(), exclude_destructive: fc.boolean(), exclude_open_world: fc.boolean() }, { requiredKeys: [] }), 2),
  wait_ms: optional(fc.constantFrom(0, 50, 50, -1), 2),
  extra: optional(fc.constant(true), 12),
});

function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

describe('preflight activity records', () => {
  it('exist, complete, for every 200 and for no 400 (property over generated requests)', async () => {
    let n = 0;
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(request, fc.boolean(), fc.constantFrom(undefined, 'cli/1.0', 'curl/8'), async (raw, asAgent, userAgent) => {
        const body = withoutUndefined({ ...raw, tools: raw.tools.map((t) => withoutUndefined({ ...t, pin_hash: t.pin_hash === 'GOOD' ? hash : t.pin_hash })) });
        const requestId = `prop-${++n}`;
        const answer = await (asAgent ? agent : operator).preflight(body, { headers: { 'x-request-id': requestId, ...(userAgent === undefined ? {} : { 'user-agent': userAgent }) } });
        statuses.add(answer.status);
        const records = await recordsOf(requestId);
        if (answer.status !== 200) {
          expect(answer.status).toBe(400);
          expect(records).toEqual([]);
          return;
        }
        expect(records).toHaveLength(1);
        const record = records[0]!;
        expect(checkValue(strictValidators.PreflightActivityRecord, record).ok).toBe(true);
        const tools = answer.body.tools as { id: string; status: string; reason?: string }[];
        const reasons: Record<string, number> = {};
        for (const tool of tools) if (tool.reason !== undefined) reasons[tool.reason] = (reasons[tool.reason] ?? 0) + 1;
        expect(record).toEqual({
          id: expect.any(Number) as unknown,
          type: 'preflight',
          timestamp: answer.body.checked_at,
          status: answer.body.verdict === 'ready' ? 'success' : 'blocked',
          surface: userAgent === 'cli/1.0' ? 'cli' : 'rest',
          request_id: requestId,
          metadata: {
            verdict: answer.body.verdict,
            ids_count: tools.length,
            reasons,
            per_tool: tools.map((t) => (t.reason === undefined ? { id: t.id, status: t.status } : { id: t.id, status: t.status, reason: t.reason })),
          },
        });
        expect(JSON.stringify(record)).not.toMatch(/sha256\/|DESCRIPTION-MUST-NOT|"detail"|"remediation"|did_you_mean/);
      }),
      // A random seed every run; these two always run first, so both outcomes are always checked.
      {
        numRuns: 200,
        examples: [
          [{ tools: [{ id: 'act:ok', pin_hash: undefined }], profile: undefined, policy: undefined, wait_ms: undefined, extra: undefined }, false, undefined],
          [{ tools: [], profile: undefined, policy: undefined, wait_ms: undefined, extra: undefined }, true, 'cli/1.0'],
        ],
      },
    );
    expect([...statuses].sort()).toEqual([200, 400]);
  });
});

describe('tool_call activity records', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectClient(gw.url, 'modern');
  });
  afterAll(async () => {
    await client?.close();
  });

  it('record server, tool, outcome and duration of each dispatched call, never its arguments', async () => {
    const since = new Date().toISOString();
    const args = { text: 'ARGUMENT-MUST-NOT-BE-LOGGED' };
    for (const name of ['act:ok', 'act:bad', 'act:slow', 'act:denied', 'q:ok']) await client.callTool({ name, arguments: args });
    const page = await operator.call('GET', `/api/v1/activity?type=tool_call&since=${since}`);
    const records = (page.body.records as { status: string; metadata: Record<string, unknown> }[]).reverse();
    for (const record of records) expect(checkValue(strictValidators.ToolCallActivityRecord, record).ok).toBe(true);
    expect(records.map((r) => [r.metadata['server'], r.metadata['tool'], r.metadata['outcome'], r.status, r.metadata['reason']])).toEqual([
      ['act', 'ok', 'success', 'success', undefined],
      ['act', 'bad', 'tool_error', 'error', undefined],
      ['act', 'slow', 'upstream_error', 'error', undefined],
      ['act', 'denied', 'refused', 'blocked', 'tool_denied_by_config'],
      ['q', 'ok', 'refused', 'blocked', 'server_quarantined'],
    ]);
    expect(records[2]!.metadata['duration_ms']).toBeGreaterThanOrEqual(250);
    expect(page.text).not.toContain('ARGUMENT-MUST-NOT-BE-LOGGED');
  });
  it('keep at most 512 code units of a name the caller made up (tools/call does not bound it)', async () => {
    const since = new Date().toISOString();
    // Long enough to matter, short enough for the 2026-07-28 name header (Node reads at most 16 KiB of headers).
    const tool = 'x'.repeat(8_000);
    const result = await client.callTool({ name: `act:${tool}`, arguments: {} });
    expect(result.isError).toBe(true);
    const page = await operator.call('GET', `/api/v1/activity?type=tool_call&since=${since}`);
    const [record] = page.body.records as { metadata: Record<string, unknown> }[];
    expect(record!.metadata['tool']).toBe(`${'x'.repeat(511)}\u2026`);
    expect(record!.metadata['reason']).toBe('not_found');
    expect(page.text.length).toBeLessThan(4096);
  });
});

describe('activity retention', () => {
  it('keeps at most activity_max_records records, none older than activity_max_age_days', async () => {
    const own = new TempDir();
    const dataDir = `${own.path}/data`;
    const opened = openStore(dataDir);
    if (!opened.ok) throw new Error(opened.error.message);
    const day = 86_400_000;
    for (let i = 0; i < 12; i++) {
      const old = i < 4;
      await opened.store.appendActivity({
        type: 'preflight',
        timestamp: new Date(Date.now() - (old ? 40 * day : (12 - i) * 60_000)).toISOString(),
        status: 'success',
        surface: 'rest',
        request_id: `seeded-${i}`,
        metadata: { verdict: 'ready', ids_count: 0, reasons: {}, per_tool: [] },
      });
    }
    opened.store.close();
    const retained = await startTestGateway(own, { data_dir: dataDir, activity_max_records: 5, activity_max_age_days: 30, servers: [] });
    try {
      const client = restClient(retained.gateway.origin!);
      await expect
        .poll(async () => ((await client.call('GET', '/api/v1/activity')).body.records as { request_id: string }[]).map((r) => r.request_id))
        .toEqual(['seeded-11', 'seeded-10', 'seeded-9', 'seeded-8', 'seeded-7']);
    } finally {
      await retained.close();
      own.remove();
    }
  });
});
