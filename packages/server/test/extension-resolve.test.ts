// Shape B: tools/resolve against the real gateway and real fixture upstreams, on both revisions.
// The served tool with the facet (the seed's SEP-1862 envelope) or the facet under the result's
// _meta (the newer tool-resolution draft); -32602 for anything not served; the policy from a
// negotiated rider; a served tool whose upstream went away keeps resolving, with the retryable reason.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkValue, EXTENSION_ID, strictValidators, type ResolveFacet } from '@mcpproxy/schema';
import { ERAS, FIXTURE_MAIN, fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { negotiating, withRawSession, type RawAnswer, type RawEra, type RawSession } from './raw-mcp-session.js';
import { ADMIN_KEY, restClient, type RestClient } from './rest-client.js';

const TOOL_RESOLUTION = 'io.modelcontextprotocol/tool-resolution';

let dir: TempDir;
let gw: TestGateway;
let rest: RestClient;
let crashPid: string;

beforeAll(async () => {
  dir = new TempDir();
  const alpha = dir.tools('alpha', [
    { name: 'read', echo: true, annotations: { readOnlyHint: true, openWorldHint: false } },
    { name: 'write', echo: true, annotations: { readOnlyHint: false, destructiveHint: true }, inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
    { name: 'bare', echo: true },
    { name: 'off', echo: true },
  ]);
  const quarantined = dir.tools('quarantined', [{ name: 'read', echo: true }]);
  const crash = dir.tools('crash', [{ name: 'read', echo: true, annotations: { readOnlyHint: true } }]);
  crashPid = dir.file('crash.pid', '');
  gw = await startTestGateway(dir, {
    api_key: ADMIN_KEY,
    // A lost upstream stays lost for the test (no reconnect within it).
    reconnect_initial_delay_ms: 600_000,
    reconnect_max_delay_ms: 600_000,
    servers: [
      fixtureServer('alpha', alpha, { disabled_tools: ['off'] }),
      fixtureServer('quarantined', quarantined, { quarantined: true }),
      { name: 'crash', command: process.execPath, args: [FIXTURE_MAIN, '--tools', crash, '--name', 'crash', '--pid-file', crashPid], quarantined: false },
    ],
  });
  await waitForState(gw.gateway, (s) => serverReady('alpha')(s) && serverReady('crash')(s) && serverReady('quarantined')(s));
  rest = restClient(gw.gateway.origin ?? '');
});

afterAll(async () => {
  await gw?.close();
  dir?.remove();
});

function withSession<T>(era: RawEra, capabilities: Record<string, unknown>, use: (session: RawSession) => Promise<T>): Promise<T> {
  return withRawSession(gw.url, era, { capabilities }, use);
}

function resolveIn(session: RawSession, name: unknown, meta?: unknown, args: unknown = {}): Promise<RawAnswer> {
  return session.request('tools/resolve', { name, arguments: args, ...(meta === undefined ? {} : { _meta: { [EXTENSION_ID]: meta } }) });
}

/** The facet of a seed-form answer, checked against the strict ResolveFacet and the whole ShapeBResponse. */
function seedFacet(answer: RawAnswer): ResolveFacet {
  expect(answer.error).toBeUndefined();
  const envelope = checkValue(strictValidators.ShapeBResponse, JSON.parse(answer.text));
  if (!envelope.ok) throw new Error(`not a ShapeBResponse: ${JSON.stringify(envelope.issues)}\n${answer.text}`);
  const facet = checkValue(strictValidators.ResolveFacet, answer.result.tool._meta[EXTENSION_ID]);
  if (!facet.ok) throw new Error(`facet breaks the strict schema: ${JSON.stringify(facet.issues)}`);
  return facet.value;
}

describe.each(ERAS)('tools/resolve on %s', (era) => {
  it('answers { tool }: the served tool as tools/list serves it, with the facet on its _meta', async () => {
    await withSession(era, negotiating(era), async (s) => {
      const listed = (await s.request('tools/list')).result.tools.find((t: { name: string }) => t.name === 'alpha:write');
      const answer = await resolveIn(s, 'alpha:write', undefined, { path: '/tmp/x' });
      expect(seedFacet(answer)).toEqual({ status: 'ready' });
      const { _meta, ...tool } = answer.result.tool;
      expect(tool).toEqual(listed);
      expect(Object.keys(_meta)).toEqual([EXTENSION_ID]);
      if (era === 'modern') expect(answer.result.resultType).toBe('complete');
      else expect(answer.result.resultType).toBeUndefined();
    });
  });

  it.each([
    ['an unknown tool', 'alpha:nope'],
    ['a tool of a server that does not exist', 'ghost:read'],
    ['a tool the config denies (not served)', 'alpha:off'],
    ['a tool of a quarantined server (not served)', 'quarantined:read'],
    ['a malformed name', 'alpha-read'],
  ])('answers -32602 for %s', async (_what, name) => {
    await withSession(era, negotiating(era), async (s) => {
      const answer = await resolveIn(s, name);
      expect(answer.result).toBeUndefined();
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toMatch(/^Unknown tool: /);
    });
  });

  it('answers -32602 for params that are not { name, arguments? }', async () => {
    await withSession(era, {}, async (s) => {
      for (const params of [{}, { name: 7 }, { name: 'alpha:read', arguments: 'x' }]) {
        expect((await s.request('tools/resolve', params)).error?.code).toBe(-32602);
      }
    });
  });

  it('takes the annotation policy from a negotiated rider, so missing_annotation and policy_filtered are reachable', async () => {
    await withSession(era, negotiating(era), async (s) => {
      expect(seedFacet(await resolveIn(s, 'alpha:bare', { policy: { read_only_only: true } }))).toMatchObject({ status: 'unavailable', reason: 'missing_annotation', retryable: false, action: 'configure' });
      const filtered = seedFacet(await resolveIn(s, 'alpha:write', { policy: { exclude_destructive: true } }));
      expect(filtered).toMatchObject({ status: 'unavailable', reason: 'policy_filtered', retryable: false });
      expect(filtered.action).toBeUndefined();
      expect(filtered.detail).toMatch(/exclude_destructive/);
      expect(seedFacet(await resolveIn(s, 'alpha:read', { policy: { read_only_only: true, exclude_open_world: true } }))).toEqual({ status: 'ready' });
    });
  });

  it("resolves the gateway's own describe_tool like any served tool: as tools/list serves it, its policy from its annotations", async () => {
    await withSession(era, negotiating(era), async (s) => {
      const listed = (await s.request('tools/list')).result.tools.find((t: { name: string }) => t.name === 'describe_tool');
      const answer = await resolveIn(s, 'describe_tool', { policy: { read_only_only: true, exclude_destructive: true, exclude_open_world: true } });
      expect(seedFacet(answer)).toEqual({ status: 'ready' });
      const { _meta, ...tool } = answer.result.tool;
      expect(tool).toEqual(listed);
    });
  });

  it('ignores the rider when the extension is not negotiated (no policy applied)', async () => {
    await withSession(era, {}, async (s) => {
      const bare = await resolveIn(s, 'alpha:bare', { policy: { read_only_only: true } });
      const anything = await resolveIn(s, 'alpha:bare', { anything: 'goes' });
      if (era === 'legacy') {
        expect(seedFacet(bare)).toEqual({ status: 'ready' });
        expect(seedFacet(anything)).toEqual({ status: 'ready' });
      } else {
        // 2026-07-28's mismatch rule: not declared on the request, so core behaviour (no facet at all).
        for (const answer of [bare, anything]) {
          expect(answer.error).toBeUndefined();
          expect(answer.result.tool.name).toBe('alpha:bare');
          expect(answer.result.tool._meta).toBeUndefined();
          expect(answer.result._meta?.[EXTENSION_ID]).toBeUndefined();
        }
      }
    });
  });

  it.each([
    ['a rider that is not an object', 'policy', /the request must be an object/],
    ['tools (the request names its one tool)', { tools: [{ id: 'alpha:read' }] }, /unknown member tools/],
    ['a reserved pin', { pin_hash: `sha256/v1:${'0'.repeat(64)}` }, /pin_hash is reserved/],
    ['a policy of the wrong type', { policy: { read_only_only: 1 } }, /policy\.read_only_only must be a boolean/],
  ])('answers -32602 naming the fault for a negotiated malformed rider: %s', async (_what, meta, fault) => {
    await withSession(era, negotiating(era), async (s) => {
      const answer = await resolveIn(s, 'alpha:read', meta);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toMatch(fault);
    });
  });

  it('is side-effect free: no upstream I/O, one activity record with surface mcp-resolve', async () => {
    const before = gw.gateway.runtime.upstreamMessageCount();
    const records = async () => ((await rest.call('GET', '/api/v1/activity?type=preflight&limit=1000')).body as { records: { surface: string }[] }).records;
    const resolvesBefore = (await records()).filter((r) => r.surface === 'mcp-resolve').length;
    await withSession(era, negotiating(era), (s) => resolveIn(s, 'alpha:read'));
    expect(gw.gateway.runtime.upstreamMessageCount()).toBe(before);
    expect((await records()).filter((r) => r.surface === 'mcp-resolve').length).toBe(resolvesBefore + 1);
    // Without the extension on a 2026-07-28 request nothing is evaluated, so nothing is recorded.
    if (era === 'modern') {
      await withSession(era, {}, (s) => resolveIn(s, 'alpha:read'));
      expect((await records()).filter((r) => r.surface === 'mcp-resolve').length).toBe(resolvesBefore + 1);
    }
  });
});

describe('the newer draft form (io.modelcontextprotocol/tool-resolution)', () => {
  it.each(ERAS)('%s: the facet rides the result _meta when both extensions are negotiated on the request', async (era) => {
    const capabilities = era === 'legacy'
      ? { experimental: { [EXTENSION_ID]: { version: 1 }, [TOOL_RESOLUTION]: {} } }
      : { extensions: { [EXTENSION_ID]: { version: 1 }, [TOOL_RESOLUTION]: {} } };
    await withSession(era, capabilities, async (s) => {
      const answer = await resolveIn(s, 'alpha:bare', { policy: { read_only_only: true } });
      expect(answer.result.tool._meta).toBeUndefined();
      const facet = checkValue(strictValidators.ResolveFacet, answer.result._meta[EXTENSION_ID]);
      expect(facet.ok && facet.value).toMatchObject({ status: 'unavailable', reason: 'missing_annotation' });
    });
  });

  it.each(ERAS)('%s: without our extension negotiated, the draft form carries no facet at all', async (era) => {
    const capabilities = era === 'legacy' ? { experimental: { [TOOL_RESOLUTION]: {} } } : { extensions: { [TOOL_RESOLUTION]: {} } };
    await withSession(era, capabilities, async (s) => {
      const answer = await resolveIn(s, 'alpha:read');
      expect(answer.result.tool.name).toBe('alpha:read');
      expect(answer.result.tool._meta).toBeUndefined();
      expect(answer.result._meta?.[EXTENSION_ID]).toBeUndefined();
    });
  });

  it('is advertised beside the extension on both revisions', async () => {
    const discover = await withSession('modern', {}, (s) => s.request('server/discover'));
    expect(discover.result.capabilities.extensions[TOOL_RESOLUTION]).toEqual({});
  });
});

describe('a served tool whose upstream went away', () => {
  it('keeps resolving (last-known tools stay served), with server_unhealthy and the restart action', async () => {
    process.kill(Number(readFileSync(crashPid, 'utf8')), 'SIGKILL');
    await waitForState(gw.gateway, (s) => s.snapshot.servers.get('crash')?.connection.state === 'disconnected');
    for (const era of ERAS) {
      const facet = await withSession(era, negotiating(era), async (s) => seedFacet(await resolveIn(s, 'crash:read')));
      expect(facet).toMatchObject({ status: 'unavailable', reason: 'server_unhealthy', retryable: true, action: 'restart' });
      expect(facet.detail).toMatch(/^Server crash is unhealthy: the upstream process exited/);
    }
  });
});
