// 2026-07-28 tools/list answered without a server instance per request (prepared-modern-listing.ts):
// the same requests go to two real gateways over the same upstreams, one answering as it ships and
// one answering every 2026-07-28 tools/list through the SDK's per-request server, and every answer
// (status, headers that matter, body) must be the same bytes, riders, malformed riders, refusals of
// the envelope and header checks, and a refused activity record included. Only the facet's own time
// and request id differ between two answers, and are masked.
import { EXTENSION_ID } from '@mcpproxy/schema';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PlainParamsServer } from '../src/mcp/plain-params-server.js';
import type { Store } from '../src/store/store.js';
import { FailingActivityStore } from './failing-activity-store.js';
import { fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type FixtureToolSpec, type TestGateway } from './gateway-harness.js';

const MODERN = '2026-07-28';
const ALPHA: FixtureToolSpec[] = [
  { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, annotations: { readOnlyHint: true } },
  { name: 'write', description: 'Writes "quoted" \\ text\u2028 ✓', annotations: { readOnlyHint: false } },
];
const BETA: FixtureToolSpec[] = [{ name: 'x', description: 'x' }, { name: 'y', description: 'y' }];

interface Side {
  readonly dir: TempDir;
  readonly gw: TestGateway;
  readonly store: FailingActivityStore;
}

let fast: Side;
let sdk: Side;

async function start(sdkModernListings: boolean): Promise<Side> {
  const dir = new TempDir();
  let store: FailingActivityStore | undefined;
  const servers = [fixtureServer('alpha', dir.tools('alpha', ALPHA)), fixtureServer('beta', dir.tools('beta', BETA))];
  const gw = await startTestGateway(dir, { page_size: 3, servers }, { sdkModernListings, wrapStore: (inner: Store) => (store = new FailingActivityStore(inner)) });
  await waitForState(gw.gateway, (s) => serverReady('alpha')(s) && serverReady('beta')(s));
  return { dir, gw, store: store! };
}

beforeAll(async () => {
  [fast, sdk] = await Promise.all([start(false), start(true)]);
});

afterAll(async () => {
  for (const side of [fast, sdk]) {
    await side?.gw.close();
    side?.dir.remove();
  }
});

const declared = { extensions: { [EXTENSION_ID]: { version: 1 } } };
const envelope = (capabilities: unknown = declared) => ({ 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': capabilities });
const RIDER = { tools: [{ id: 'alpha:echo' }, { id: 'alpha:write' }, { id: 'beta:nope' }, { id: 'alpha:echo' }], policy: { read_only_only: true } };
const HEADERS = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' };

interface Exchange {
  readonly name: string;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

const listing = (meta: Record<string, unknown>, more: Record<string, unknown> = {}, id: unknown = 7) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta, ...more } });

const EXCHANGES: Exchange[] = [
  { name: 'plain, the extension declared', body: listing(envelope()) },
  { name: 'plain, no capabilities', body: listing(envelope({})) },
  { name: 'plain, with clientInfo', body: listing({ ...envelope(), 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' } }) },
  { name: 'plain, string id', body: listing(envelope(), {}, 'abc') },
  { name: 'plain, id 0', body: listing(envelope(), {}, 0) },
  { name: 'plain, headers with spaces', body: listing(envelope()), headers: { 'mcp-protocol-version': ` ${MODERN} `, 'mcp-method': ' tools/list' } },
  { name: 'rider', body: listing({ ...envelope(), [EXTENSION_ID]: RIDER }) },
  { name: 'rider, not negotiated', body: listing({ ...envelope({}), [EXTENSION_ID]: RIDER }) },
  { name: 'rider, a settings version above ours', body: listing({ ...envelope({ extensions: { [EXTENSION_ID]: { version: 99 } } }), [EXTENSION_ID]: RIDER }) },
  { name: 'rider of a number', body: listing({ ...envelope(), [EXTENSION_ID]: 5 }) },
  { name: 'rider of null', body: listing({ ...envelope(), [EXTENSION_ID]: null }) },
  { name: 'rider without tools', body: listing({ ...envelope(), [EXTENSION_ID]: { tools: [] } }) },
  { name: 'rider with a bad ID', body: listing({ ...envelope(), [EXTENSION_ID]: { tools: [{ id: 1 }] } }) },
  { name: 'rider of 51 tools', body: listing({ ...envelope(), [EXTENSION_ID]: { tools: Array.from({ length: 51 }, (_, i) => ({ id: `alpha:t${i}` })) } }) },
  { name: 'rider with an unknown member', body: listing({ ...envelope(), [EXTENSION_ID]: { tools: [{ id: 'alpha:echo' }], extra: true } }) },
  { name: 'a cursor', body: listing(envelope(), { cursor: 'WzEsImFscGhhIiwid3JpdGUiXQ' }) },
  { name: 'a bad cursor', body: listing(envelope(), { cursor: '!' }) },
  { name: 'a log level in the envelope', body: listing({ ...envelope(), 'io.modelcontextprotocol/logLevel': 'debug' }) },
  { name: 'retry fields', body: listing(envelope(), { requestState: 5 }) },
  { name: 'an unknown member in the body', body: { ...listing(envelope()), extra: 1 } },
  { name: 'no Mcp-Method header', body: listing(envelope()), headers: { 'mcp-protocol-version': MODERN } },
  { name: 'no MCP-Protocol-Version header', body: listing(envelope()), headers: { 'mcp-method': 'tools/list' } },
  { name: 'a Mcp-Method header naming another method', body: listing(envelope()), headers: { ...HEADERS, 'mcp-method': 'tools/call' } },
  { name: 'a header naming another revision', body: listing(envelope()), headers: { ...HEADERS, 'mcp-protocol-version': '2025-11-25' } },
  { name: 'a Mcp-Name header', body: listing(envelope()), headers: { ...HEADERS, 'mcp-name': 'x' } },
  { name: 'an envelope without capabilities', body: listing({ 'io.modelcontextprotocol/protocolVersion': MODERN }) },
  { name: 'capabilities that are not an object', body: listing(envelope(7)) },
  { name: 'a revision the gateway does not serve', body: listing({ ...envelope(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }), headers: { ...HEADERS, 'mcp-protocol-version': '2099-01-01' } },
  { name: 'a notification', body: { jsonrpc: '2.0', method: 'tools/list', params: { _meta: envelope() } } },
  { name: 'a fractional id', body: listing(envelope(), {}, 1.5) },
];

interface Seen {
  readonly status: number;
  readonly contentType: string | null;
  readonly contentLength: string | null;
  readonly body: string;
}

async function send(side: Side, exchange: Exchange): Promise<Seen> {
  const text = JSON.stringify(exchange.body);
  const response = await fetch(side.gw.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(exchange.headers ?? HEADERS) },
    body: text,
  });
  const body = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), contentLength: response.headers.get('content-length'), body: masked(body) };
}

/** A facet's own time and request id differ between any two answers. */
function masked(body: string): string {
  return body.replace(/"checked_at":"[^"]*"/g, '"checked_at":"…"').replace(/"request_id":"[^"]*"/g, '"request_id":"…"');
}

describe('2026-07-28 tools/list without a server per request', () => {
  it.each(EXCHANGES.map((e) => [e.name, e] as const))('%s: the same answer as the SDK path, byte for byte', async (_name, exchange) => {
    const [ours, theirs] = await Promise.all([send(fast, exchange), send(sdk, exchange)]);
    expect(ours).toEqual(theirs);
  });

  it('with the activity log refusing the record: the same -32603 answer, and the plain listing unchanged', async () => {
    const rider: Exchange = { name: 'rider', body: listing({ ...envelope(), [EXTENSION_ID]: RIDER }) };
    fast.store.failing = true;
    sdk.store.failing = true;
    try {
      const [ours, theirs] = await Promise.all([send(fast, rider), send(sdk, rider)]);
      expect(ours).toEqual(theirs);
      expect(JSON.parse(ours.body).error.code).toBe(-32603);
      expect(fast.store.refused).toBe(1);
    } finally {
      fast.store.failing = false;
      sdk.store.failing = false;
    }
  });

  it('a plain and a rider listing build no server instance', async () => {
    const connect = vi.spyOn(PlainParamsServer.prototype, 'connect');
    try {
      const plain = await send(fast, EXCHANGES[0]!);
      const rider = await send(fast, EXCHANGES.find((e) => e.name === 'rider')!);
      expect(JSON.parse(plain.body).result.tools).toHaveLength(3);
      expect(JSON.parse(rider.body).result._meta[EXTENSION_ID].tools).toHaveLength(3);
      expect(connect).not.toHaveBeenCalled();
      // A request this module leaves to the SDK still gets its server.
      await send(fast, EXCHANGES.find((e) => e.name === 'a cursor')!);
      expect(connect).toHaveBeenCalledTimes(1);
    } finally {
      connect.mockRestore();
    }
  });
});
