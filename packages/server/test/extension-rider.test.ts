// Shape A against the real gateway and a real fixture upstream, on both revisions: advertisement,
// negotiation, the facet on exactly the response that carried the rider, -32602 naming the fault,
// the activity record, and no upstream I/O.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkValue, EXTENSION_ID, SETTINGS_VERSION, strictValidators, type ResponseFacet } from '@mcpproxy/schema';
import { connectClient, ERAS, fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { negotiating, withRawSession, type RawAnswer, type RawEra, type RawSession } from './raw-mcp-session.js';
import { ADMIN_KEY, restClient, type RestClient } from './rest-client.js';

const SCOPED_TOKEN = 'scoped-token-for-rider-tests';

let dir: TempDir;
let gw: TestGateway;
let rest: RestClient;

beforeAll(async () => {
  dir = new TempDir();
  const alpha = dir.tools('alpha', [
    { name: 'echo', echo: true, annotations: { readOnlyHint: true } },
    { name: 'write', echo: true },
  ]);
  const beta = dir.tools('beta', [{ name: 'x', echo: true }]);
  gw = await startTestGateway(dir, {
    api_key: ADMIN_KEY,
    page_size: 3,
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

function facetOf(answer: RawAnswer): ResponseFacet | undefined {
  return answer.result?._meta?.[EXTENSION_ID] as ResponseFacet | undefined;
}

function strictFacet(value: unknown): ResponseFacet {
  const checked = checkValue(strictValidators.ResponseFacet, value);
  if (!checked.ok) throw new Error(`facet breaks the strict schema: ${JSON.stringify(checked.issues)}\n${JSON.stringify(value)}`);
  return checked.value;
}

async function preflightRecords(): Promise<number> {
  const answer = await rest.call('GET', '/api/v1/activity?type=preflight&limit=1000');
  return (answer.body as { records: unknown[] }).records.length;
}

function withSession<T>(era: RawEra, capabilities: Record<string, unknown>, use: (session: RawSession) => Promise<T>, token?: string): Promise<T> {
  return withRawSession(gw.url, era, { capabilities, ...(token === undefined ? {} : { token }) }, use);
}

describe('advertisement', () => {
  it('2025-11-25: capabilities.experimental at initialize, and nowhere else', async () => {
    const client = await connectClient(gw.url, 'legacy');
    try {
      const capabilities = client.getServerCapabilities() as Record<string, Record<string, unknown> | undefined>;
      expect(capabilities['experimental']?.[EXTENSION_ID]).toEqual({ version: SETTINGS_VERSION, max_tools: 50 });
      expect(checkValue(strictValidators.Settings, capabilities['experimental']?.[EXTENSION_ID]).ok).toBe(true);
      expect(capabilities['extensions']).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('2026-07-28: capabilities.extensions of server/discover, and nowhere else', async () => {
    const answer = await withSession('modern', {}, (s) => s.request('server/discover'));
    const capabilities = answer.result.capabilities as Record<string, Record<string, unknown> | undefined>;
    expect(capabilities['extensions']?.[EXTENSION_ID]).toEqual({ version: SETTINGS_VERSION, max_tools: 50 });
    expect(capabilities['experimental']).toBeUndefined();
  });
});

describe.each(ERAS)('the rider on %s', (era) => {
  it('an SDK client gets the verdict in band with one tools/list, beside the same listing', async () => {
    const client = await connectClient(gw.url, era, undefined, negotiating(era));
    try {
      const plain = await client.request({ method: 'tools/list', params: {} });
      const rider = { tools: [{ id: ' alpha:echo ' }, { id: 'alpha:write' }, { id: 'alpha:echo' }, { id: 'alpha:ech' }], policy: { read_only_only: true } };
      const carried = await client.request({ method: 'tools/list', params: { _meta: { [EXTENSION_ID]: rider } } });
      expect(carried.tools).toEqual(plain.tools);
      expect(carried.nextCursor).toEqual(plain.nextCursor);
      const facet = strictFacet(carried._meta?.[EXTENSION_ID]);
      expect(facet.verdict).toBe('unknown_ids');
      // Deduplicated on the trimmed form, first occurrence kept and echoed verbatim, in request order.
      expect(facet.tools.map((t) => [t.id, t.status, t.reason])).toEqual([
        [' alpha:echo ', 'ready', undefined],
        ['alpha:write', 'unavailable', 'missing_annotation'],
        ['alpha:ech', 'unavailable', 'not_found'],
      ]);
      expect(facet.tools[2]?.did_you_mean).toEqual(['alpha:echo']);
      expect(plain._meta?.[EXTENSION_ID]).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('writes the activity record (surface mcp-rider, same request id) and asks no upstream anything', async () => {
    const before = gw.gateway.runtime.upstreamMessageCount();
    const answer = await withSession(era, negotiating(era), (s) => s.request('tools/list', { _meta: { [EXTENSION_ID]: { tools: [{ id: 'alpha:echo' }, { id: 'beta:x' }] } } }));
    const facet = strictFacet(facetOf(answer));
    expect(gw.gateway.runtime.upstreamMessageCount()).toBe(before);
    const records = (await rest.call('GET', `/api/v1/activity?request_id=${facet.request_id}`)).body.records as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ type: 'preflight', surface: 'mcp-rider', request_id: facet.request_id, status: 'success' });
    expect(records[0]?.['metadata']).toMatchObject({ verdict: 'ready', ids_count: 2 });
  });

  it.each([
    ['no declaration', {}],
    ['a settings version above ours', { version: SETTINGS_VERSION + 1 }],
    ['a settings version below 1', { version: 0 }],
    ['a version that is not the number 1', { version: '1' }],
  ])('is ignored when not negotiated (%s): core listing, no facet, nothing recorded', async (_what, declaration) => {
    const capabilities = _what === 'no declaration' ? {} : negotiating(era, declaration as Record<string, unknown>);
    const before = await preflightRecords();
    await withSession(era, capabilities, async (s) => {
      const plain = await s.request('tools/list');
      for (const rider of [{ tools: [{ id: 'alpha:echo' }] }, { tools: [] }, 'not even an object']) {
        const answer = await s.request('tools/list', { _meta: { [EXTENSION_ID]: rider } });
        expect(answer.error).toBeUndefined();
        expect(facetOf(answer)).toBeUndefined();
        expect(answer.result.tools).toEqual(plain.result.tools);
      }
    });
    expect(await preflightRecords()).toBe(before);
  });

  it('accepts a mirror without a version as negotiated', async () => {
    const answer = await withSession(era, negotiating(era, {}), (s) => s.request('tools/list', { _meta: { [EXTENSION_ID]: { tools: [{ id: 'alpha:echo' }] } } }));
    expect(strictFacet(facetOf(answer)).verdict).toBe('ready');
  });

  it.each([
    ['missing tools', {}, /tools is required/],
    ['empty tools', { tools: [] }, /provide 1-50 tools/],
    ['51 entries', { tools: Array.from({ length: 51 }, (_, i) => ({ id: `alpha:t${i}` })) }, /too many tools: 51 \(max 50\)/],
    ['pin_hash', { tools: [{ id: 'alpha:echo', pin_hash: `sha256/v1:${'0'.repeat(64)}` }] }, /tools\[0\]\.pin_hash is reserved/],
    ['expect_hashes', { tools: [{ id: 'alpha:echo' }], expect_hashes: {} }, /expect_hashes is reserved/],
    ['wait_ms', { tools: [{ id: 'alpha:echo' }], wait_ms: 100 }, /wait_ms is reserved/],
    ['profile', { tools: [{ id: 'alpha:echo' }], profile: 'dev' }, /profile is reserved/],
    ['an unknown field', { tools: [{ id: 'alpha:echo' }], extra: true }, /unknown member extra/],
    ['an unknown tool field', { tools: [{ id: 'alpha:echo', name: 'x' }] }, /unknown member tools\[0\]\.name/],
    ['policy of the wrong type', { tools: [{ id: 'alpha:echo' }], policy: true }, /policy must be an object/],
    ['a policy flag of the wrong type', { tools: [{ id: 'alpha:echo' }], policy: { read_only_only: 'yes' } }, /policy\.read_only_only must be a boolean/],
    ['an id that is not a string', { tools: [{ id: 7 }] }, /tools\[0\]\.id must be a string/],
    ['a rider that is not an object', [{ id: 'alpha:echo' }], /the rider must be an object/],
  ])('fails the whole call with -32602 naming the fault when negotiated: %s (nothing evaluated)', async (_what, rider, fault) => {
    const before = await preflightRecords();
    const answer = await withSession(era, negotiating(era), (s) => s.request('tools/list', { _meta: { [EXTENSION_ID]: rider } }));
    expect(answer.result).toBeUndefined();
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(fault);
    expect(answer.error?.message).toMatch(/nothing was evaluated$/);
    expect(answer.error?.data).toMatchObject({ extension: EXTENSION_ID });
    expect(await preflightRecords()).toBe(before);
  });

  it('rides exactly the page that carried the rider', async () => {
    await withSession(era, negotiating(era), async (s) => {
      const first = await s.request('tools/list');
      expect(facetOf(first)).toBeUndefined();
      const cursor = first.result.nextCursor as string;
      expect(typeof cursor).toBe('string');
      const second = await s.request('tools/list', { cursor });
      const carried = await s.request('tools/list', { cursor, _meta: { [EXTENSION_ID]: { tools: [{ id: 'beta:x' }] } } });
      expect(carried.result.tools).toEqual(second.result.tools);
      expect(carried.result.tools.map((t: { name: string }) => t.name)).toEqual(['beta:x']);
      expect(strictFacet(facetOf(carried)).tools).toEqual([{ id: 'beta:x', status: 'ready' }]);
      const after = await s.request('tools/list', { cursor });
      expect(facetOf(after)).toBeUndefined();
    });
  });

  it("applies the session's scope to the listing and the verdict alike (an out-of-scope server reads as not_found)", async () => {
    await withSession(
      era,
      negotiating(era),
      async (s) => {
        const answer = await s.request('tools/list', { _meta: { [EXTENSION_ID]: { tools: [{ id: 'beta:x' }, { id: 'ghost:x' }, { id: 'alpha:echo' }] } } });
        expect(answer.result.tools.map((t: { name: string }) => t.name)).toEqual(['describe_tool', 'alpha:echo', 'alpha:write']);
        const facet = strictFacet(facetOf(answer));
        expect(facet.tools.map((t) => t.reason ?? t.status)).toEqual(['not_found', 'not_found', 'ready']);
        // The collapse leaves no trace of the server: the same wording as for a server that does not exist.
        expect(facet.tools[0]?.detail?.replace('beta:x', 'ID')).toBe(facet.tools[1]?.detail?.replace('ghost:x', 'ID'));
        expect(facet.tools[0]?.remediation).toBe(facet.tools[1]?.remediation);
        expect(facet.tools.every((t) => t.did_you_mean === undefined)).toBe(true);
      },
      SCOPED_TOKEN,
    );
  });
});

describe('the 2026-07-28 wire', () => {
  it('a result carrying a rider says resultType complete, cacheScope private, ttlMs 0', async () => {
    const answer = await withSession('modern', negotiating('modern'), (s) => s.request('tools/list', { _meta: { [EXTENSION_ID]: { tools: [{ id: 'alpha:echo' }] } } }));
    expect(answer.result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 0 });
    // The facet sits beside the SDK's own serverInfo stamp.
    expect(Object.keys(answer.result._meta).sort()).toEqual([EXTENSION_ID, 'io.modelcontextprotocol/serverInfo']);
    expect(checkValue(strictValidators.ShapeAResponse, JSON.parse(answer.text)).ok).toBe(true);
  });

  it('negotiation is per request: the same client without the declaration on the next request gets no facet', async () => {
    const withIt = await withSession('modern', negotiating('modern'), (s) => s.request('tools/list', { _meta: { [EXTENSION_ID]: { tools: [{ id: 'alpha:echo' }] } } }));
    const without = await withSession('modern', {}, (s) => s.request('tools/list', { _meta: { [EXTENSION_ID]: { tools: [{ id: 'alpha:echo' }] } } }));
    expect(facetOf(withIt)).toBeDefined();
    expect(facetOf(without)).toBeUndefined();
  });
});

describe('the 2025-11-25 wire', () => {
  it('carries no 2026 fields, and the response validates as ShapeAResponse', async () => {
    const answer = await withSession('legacy', negotiating('legacy'), (s) => s.request('tools/list', { _meta: { [EXTENSION_ID]: { tools: [{ id: 'alpha:echo' }] } } }));
    expect(answer.result.resultType).toBeUndefined();
    expect(answer.result.ttlMs).toBeUndefined();
    expect(answer.result.cacheScope).toBeUndefined();
    expect(checkValue(strictValidators.ShapeAResponse, JSON.parse(answer.text)).ok).toBe(true);
  });
});
