// The root README's raw JSON-RPC snippet ("Copy this", the payload specification's first consumer
// for any harness): the request is sent exactly as printed, with the headers the README names, to a
// real gateway serving what the README says, and the answer is the printed one. Only the fields the
// README says differ per run (checked_at, request_id, the server's version) and the tools it elides
// ("...": "...") are not compared; the first three must still be well formed. Then the 2025-11-25
// form the README describes in words: the same body without the two io.modelcontextprotocol/* keys,
// in a session whose initialize declared the printed capabilities.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, Scratch, startGateway, waitForServer, type Gateway } from './client-harness.js';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const SECTION = README.slice(README.indexOf('**Copy this**'));
const [REQUEST_TEXT, RESPONSE_TEXT] = [...SECTION.matchAll(/```json\n([\s\S]*?)```/g)].map((block) => block[1]!);
/** The headers the README names before the request: `Name: value` in backticks. */
const HEADERS = Object.fromEntries([...SECTION.slice(0, SECTION.indexOf('```json')).matchAll(/`([A-Za-z-]+): ([^`]+)`/g)].map((m) => [m[1]!, m[2]!]));
/** The legacy session's capabilities, as the README prints them. */
const LEGACY_CAPABILITIES = (JSON.parse(`{${/`("capabilities": \{[^`]*\})`/.exec(SECTION)?.[1] ?? ''}}`) as { capabilities: Record<string, unknown> }).capabilities;
const PROTOCOL_KEYS = ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities'];
/** What the README says a 2025-11-25 result lacks: the backticked names after "the result then has no". */
const LEGACY_ABSENT = [.../the\s+result\s+then\s+has\s+no\s([\s\S]*?`)\./.exec(SECTION)?.[1]?.matchAll(/`([^`]+)`/g) ?? []].map((m) => m[1]!).filter((name) => name !== '_meta');

type Json = Record<string, unknown>;
let scratch: Scratch;
let gw: Gateway;

beforeAll(async () => {
  scratch = new Scratch();
  gw = await startGateway(scratch, {
    servers: [
      fixtureServer(scratch, 'gh-ops', [{ name: 'sync_issues', description: 'Sync issues', inputSchema: { type: 'object', properties: { repo: { type: 'string' } } }, annotations: { readOnlyHint: true } }]),
      fixtureServer(scratch, 'slack', [{ name: 'post_message' }], { quarantined: true }),
    ],
  });
  await waitForServer(gw, 'gh-ops', ['ready']);
});
afterAll(async () => {
  await gw?.stop();
  scratch?.remove();
});

/** POST to the MCP endpoint; the JSON-RPC message of the answer, sent as JSON or as one SSE event. */
async function post(body: string, headers: Record<string, string>): Promise<{ message: Json; session: string | null }> {
  const response = await fetch(gw.mcpUrl, { method: 'POST', headers, body });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  const data = response.headers.get('content-type')?.startsWith('text/event-stream') === true ? text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('') : text;
  return { message: JSON.parse(data) as Json, session: response.headers.get('mcp-session-id') };
}

/** The answer with what varies per run checked and replaced by the printed values, and the elided tools by their printed stand-ins. */
function asPrinted(actual: Json, printed: Json): Json {
  const copy = structuredClone(actual) as { result: { tools: Json[]; _meta: Record<string, Json> } };
  const shown = printed as { result: { tools: Json[]; _meta: Record<string, Json> } };
  const facet = copy.result._meta['app.mcpproxy/required-tools']!;
  expect(facet['checked_at']).toSatisfy((value: unknown) => typeof value === 'string' && new Date(value).toISOString() === value);
  expect(facet['request_id']).toMatch(/^[a-zA-Z0-9_-]{1,256}$/);
  facet['checked_at'] = shown.result._meta['app.mcpproxy/required-tools']!['checked_at'];
  facet['request_id'] = shown.result._meta['app.mcpproxy/required-tools']!['request_id'];
  const serverInfo = copy.result._meta['io.modelcontextprotocol/serverInfo'];
  if (serverInfo !== undefined) {
    expect(serverInfo['version']).toMatch(/^\d+\.\d+\.\d+/);
    serverInfo['version'] = shown.result._meta['io.modelcontextprotocol/serverInfo']?.['version'];
  }
  copy.result.tools = copy.result.tools.map((tool, i) => {
    const stand = shown.result.tools[i];
    return stand !== undefined && Object.hasOwn(stand, '...') && stand['name'] === tool['name'] ? stand : tool;
  });
  return copy as unknown as Json;
}

describe('the README raw JSON-RPC snippet', () => {
  it('names the request headers and the legacy capabilities it is sent with', () => {
    expect(HEADERS).toEqual({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' });
    expect(LEGACY_CAPABILITIES).toEqual({ experimental: { 'app.mcpproxy/required-tools': { version: 1 } } });
    expect(LEGACY_ABSENT).toEqual(['resultType', 'ttlMs', 'cacheScope', 'io.modelcontextprotocol/serverInfo']);
  });

  it('2026-07-28: the printed request, sent as printed, gets the printed answer', async () => {
    const { message } = await post(REQUEST_TEXT!, HEADERS);
    expect(asPrinted(message, JSON.parse(RESPONSE_TEXT!) as Json)).toEqual(JSON.parse(RESPONSE_TEXT!));
  });

  it('2025-11-25: the same body without the io.modelcontextprotocol/* keys, in a session that declared the capabilities', async () => {
    const legacy = { ...HEADERS, 'MCP-Protocol-Version': '2025-11-25' };
    delete (legacy as Record<string, string>)['Mcp-Method'];
    const init = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: LEGACY_CAPABILITIES, clientInfo: { name: 'readme', version: '1.0.0' } } }), legacy);
    expect(init.session).toEqual(expect.any(String));
    const inSession = { ...legacy, 'Mcp-Session-Id': init.session! };
    expect((await fetch(gw.mcpUrl, { method: 'POST', headers: inSession, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).status).toBe(202);

    const body = JSON.parse(REQUEST_TEXT!) as { params: { _meta: Json } };
    for (const key of PROTOCOL_KEYS) delete body.params._meta[key];
    const { message } = await post(JSON.stringify(body), inSession);
    const printed = JSON.parse(RESPONSE_TEXT!) as { result: Json & { _meta: Json } };
    for (const key of LEGACY_ABSENT) delete (Object.hasOwn(printed.result, key) ? printed.result : printed.result._meta)[key];
    expect(asPrinted(message, printed)).toEqual(printed);
  });
});
