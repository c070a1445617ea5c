// tools/list answers on the wire of the real gateway, on both revisions, with and without a rider:
// each is one JSON body in JSON.stringify's own form with an exact Content-Length; a rider's answer
// lists exactly the plain answer's tools; the listing goes out as the bytes prepared for it (not
// serialized again per request, riders and 2026-07-28 included); and the 2026-07-28 checks of the
// envelope and the standard headers still refuse what they refused.
import { EXTENSION_ID } from '@mcpproxy/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayListing } from '../src/mcp/gateway-mcp-server.js';
import { ERAS, fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type FixtureToolSpec, type TestGateway } from './gateway-harness.js';
import { negotiating, withRawSession, type RawEra, type RawSession } from './raw-mcp-session.js';

const ALPHA: FixtureToolSpec[] = [
  { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, annotations: { readOnlyHint: true } },
  { name: 'write', description: 'Writes "quoted" \\ text\u2028', annotations: { readOnlyHint: false } },
  { name: 'ünïcode', description: 'Non-ASCII: ✓ 日本語 😀', inputSchema: { type: 'object', properties: { __proto__: { type: 'string' }, constructor: { type: 'number' } } } },
];
const BETA: FixtureToolSpec[] = [{ name: 'x', description: 'x' }, { name: 'y', description: 'y' }];
const RIDER = { tools: [{ id: 'alpha:echo' }, { id: 'alpha:write' }, { id: 'beta:nope' }], policy: { read_only_only: true } };
const MODERN = '2026-07-28';

let dir: TempDir;
let gw: TestGateway;

beforeAll(async () => {
  dir = new TempDir();
  gw = await startTestGateway(dir, { page_size: 3, servers: [fixtureServer('alpha', dir.tools('alpha', ALPHA)), fixtureServer('beta', dir.tools('beta', BETA))] });
  await waitForState(gw.gateway, (s) => serverReady('alpha')(s) && serverReady('beta')(s));
});

afterAll(async () => {
  await gw?.close();
  dir?.remove();
});

interface Page {
  readonly text: string;
  readonly result: Record<string, unknown> & { tools: { name: string; description?: string }[]; nextCursor?: string };
}

/** One tools/list POST, checked for what every answer must be on the wire. */
async function listPage(session: RawSession, cursor: string | undefined, rider: boolean): Promise<Page> {
  const meta = rider ? { _meta: { [EXTENSION_ID]: RIDER } } : {};
  const answer = await session.request('tools/list', { ...(cursor === undefined ? {} : { cursor }), ...meta });
  expect(answer.status).toBe(200);
  expect(answer.contentType).toBe('application/json');
  expect(Number(answer.contentLength)).toBe(Buffer.byteLength(answer.text, 'utf8'));
  // The body is what JSON.stringify writes for the object it parses to: no other spacing, order or escapes.
  expect(answer.text).toBe(JSON.stringify(JSON.parse(answer.text)));
  expect(answer.error).toBeUndefined();
  return { text: answer.text, result: answer.result };
}

function withSession<T>(era: RawEra, use: (session: RawSession) => Promise<T>): Promise<T> {
  return withRawSession(gw.url, era, { capabilities: negotiating(era) }, use);
}

describe.each(ERAS)('tools/list answers on %s', (era) => {
  it('every page, with and without a rider, in JSON.stringify form; the rider only adds its facet (and, on 2026-07-28, the private cache fields)', async () => {
    await withSession(era, async (session) => {
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const plain = await listPage(session, cursor, false);
        const carried = await listPage(session, cursor, true);
        expect(carried.result.tools).toEqual(plain.result.tools);
        expect(carried.result.nextCursor).toEqual(plain.result.nextCursor);
        const facet = (carried.result['_meta'] as Record<string, { tools: { id: string; status: string }[] }>)[EXTENSION_ID]!;
        expect(facet.tools.map((t) => [t.id, t.status])).toEqual([
          ['alpha:echo', 'ready'],
          ['alpha:write', 'unavailable'],
          ['beta:nope', 'unavailable'],
        ]);
        if (era === 'modern') {
          expect(plain.result).toMatchObject({ resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': expect.any(Object) } });
          expect(carried.result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', _meta: { 'io.modelcontextprotocol/serverInfo': expect.any(Object) } });
        } else {
          expect(Object.keys(plain.result).sort()).toEqual(plain.result.nextCursor === undefined ? ['tools'] : ['nextCursor', 'tools']);
          expect(Object.keys(carried.result).sort()).toEqual(carried.result.nextCursor === undefined ? ['_meta', 'tools'] : ['_meta', 'nextCursor', 'tools']);
        }
        names.push(...plain.result.tools.map((t) => t.name));
        cursor = plain.result.nextCursor;
      } while (cursor !== undefined);
      expect(names).toEqual(['describe_tool', 'alpha:echo', 'alpha:write', 'alpha:ünïcode', 'beta:x', 'beta:y']);
    });
  });
});

describe('the listing goes out as the bytes prepared for it', () => {
  it('plain and rider answers on both revisions carry the prepared listing, not a new serialization of it', async () => {
    // The first answers prepare the page's bytes. A definition object changed afterwards behind the
    // cache's back (nothing in the gateway does this; the published state is replaced, never edited)
    // would show in any answer that serializes the listing again, and in none sent as the prepared bytes.
    for (const era of ERAS) await withSession(era, (session) => listPage(session, undefined, false));
    const entry = gatewayListing(gw.gateway.runtime.current(), { allowed_servers: '*' }).entries.find((e) => e.definition.name === 'alpha:echo')!;
    const definition = entry.definition as { description?: string };
    const original = definition.description;
    expect(original).toBe('Echoes');
    definition.description = 'changed behind the prepared bytes';
    try {
      for (const era of ERAS) {
        await withSession(era, async (session) => {
          for (const rider of [false, true]) {
            const page = await listPage(session, undefined, rider);
            expect({ era, rider, description: page.result.tools.find((t) => t.name === 'alpha:echo')?.description }).toEqual({ era, rider, description: original });
          }
        });
      }
    } finally {
      definition.description = original!;
    }
  });
});

describe('2026-07-28: tools/list keeps every check of the envelope and the standard headers', () => {
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
  const body = (meta: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: meta } });
  async function post(text: string, headers: Record<string, string>): Promise<{ status: number; json: { error?: { code: number; message: string } } }> {
    const response = await fetch(gw.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: text });
    return { status: response.status, json: (await response.json()) as { error?: { code: number; message: string } } };
  }

  it('a Mcp-Method header that disagrees with the body is -32020', async () => {
    const answer = await post(body(envelope), { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' });
    expect(answer.status).toBe(400);
    expect(answer.json.error?.code).toBe(-32020);
  });

  it('a MCP-Protocol-Version header that disagrees with the envelope is -32020', async () => {
    const answer = await post(body(envelope), { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list' });
    expect(answer.status).toBe(400);
    expect(answer.json.error?.code).toBe(-32020);
  });

  it('an envelope without the client capabilities is -32602', async () => {
    const answer = await post(body({ 'io.modelcontextprotocol/protocolVersion': MODERN }), { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' });
    expect(answer.status).toBe(400);
    expect(answer.json.error?.code).toBe(-32602);
  });

  it('a revision the gateway does not serve is -32022', async () => {
    const answer = await post(body({ ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }), { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tools/list' });
    expect(answer.status).toBe(400);
    expect(answer.json.error?.code).toBe(-32022);
  });
});
