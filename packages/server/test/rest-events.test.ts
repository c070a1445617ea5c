// GET /api/v1/events on a real gateway: hello first, then the listing entries that changed, as the
// runtime publishes them; operator only; bounded (over the cap the oldest stream ends); every stream
// ends when the gateway stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictValidators, checkValue } from '@mcpproxy/schema';
import { readEventStream, type EventStreamReader } from './event-stream-reader.js';
import { fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { ADMIN_KEY, restClient, SEEN, type RestClient } from './rest-client.js';
import { contractProblems } from './openapi-contract.js';
import { MAX_EVENT_STREAMS } from '../src/rest/gateway-event-feed.js';

const AGENT_SECRET = 'events-agent-secret-0123';
type Event = { type: string; version: number; server?: { name: string; enabled: boolean; state?: string }; tool?: { id: string; user_disabled: boolean }; id?: string };

let dir: TempDir;
let gw: TestGateway;
let api: RestClient;
const open: EventStreamReader[] = [];

beforeAll(async () => {
  dir = new TempDir();
  const tools = dir.tools('t', [{ name: 'echo', echo: true }, { name: 'other' }]);
  gw = await startTestGateway(dir, { servers: [fixtureServer('alpha', tools)], agent_tokens: [{ name: 'agent', token: AGENT_SECRET, allowed_servers: ['*'] }] });
  await waitForState(gw.gateway, serverReady('alpha'));
  api = restClient(gw.gateway.origin!);
});
afterAll(async () => {
  await Promise.all(open.map((reader) => reader.cancel().catch(() => undefined)));
  await gw?.close();
  dir?.remove();
});

async function follow(headers: Record<string, string> = { 'x-api-key': ADMIN_KEY }): Promise<{ response: Response; reader: EventStreamReader }> {
  const response = await fetch(`${gw.gateway.origin!}/api/v1/events`, { headers });
  expect(contractProblems('GET', '/api/v1/events', response.status, response.headers.get('content-type'), undefined)).toEqual([]);
  SEEN.add(`streamEvents ${response.status}`);
  const reader = readEventStream(response);
  open.push(reader);
  return { response, reader };
}

const isType = (type: string) => (message: unknown) => (message as Event).type === type;

describe('GET /api/v1/events', () => {
  it('sends hello with the state version, then each changed server and tool entry, each a valid GatewayEvent', async () => {
    const { response, reader } = await follow();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    const hello = (await reader.waitFor(isType('hello'))) as Event;
    expect(hello.version).toBe(gw.gateway.runtime.current().snapshot.version);
    expect(reader.messages[0]).toBe(hello);

    await api.call('POST', '/api/v1/tools/alpha%3Aother/disable');
    const tool = (await reader.waitFor((m) => isType('tool')(m) && (m as Event).tool?.id === 'alpha:other')) as Event;
    expect(tool.tool).toMatchObject({ user_disabled: true });
    expect(tool.version).toBeGreaterThan(hello.version);

    await api.call('POST', '/api/v1/servers/alpha/disable');
    await reader.waitFor((m) => isType('server')(m) && (m as Event).server?.enabled === false);
    await api.call('POST', '/api/v1/servers/alpha/enable');
    await reader.waitFor((m) => isType('server')(m) && (m as Event).server?.state === 'ready');
    for (const message of reader.messages) expect(checkValue(strictValidators.GatewayEvent, message).ok, JSON.stringify(message)).toBe(true);
    // Nothing is sent twice: an entry goes out only when it differs from the last one sent.
    const servers = reader.messages.filter(isType('server')).map((m) => JSON.stringify((m as Event).server));
    expect(servers.every((text, i) => i === 0 || text !== servers[i - 1])).toBe(true);
    await reader.cancel();
  });

  it('is operator only: 401 for a wrong key, 403 for an agent token', async () => {
    const wrong = await fetch(`${gw.gateway.origin!}/api/v1/events`, { headers: { 'x-api-key': 'wrong-key-0123456789' } });
    expect(contractProblems('GET', '/api/v1/events', wrong.status, wrong.headers.get('content-type'), await wrong.json())).toEqual([]);
    expect(wrong.status).toBe(401);
    SEEN.add('streamEvents 401');
    const agent = await fetch(`${gw.gateway.origin!}/api/v1/events`, { headers: { authorization: `Bearer ${AGENT_SECRET}` } });
    expect(contractProblems('GET', '/api/v1/events', agent.status, agent.headers.get('content-type'), await agent.json())).toEqual([]);
    expect(agent.status).toBe(403);
    SEEN.add('streamEvents 403');
  });

  it(`keeps at most ${MAX_EVENT_STREAMS} streams: the next one ends the oldest, and the newest keep receiving`, async () => {
    const readers: EventStreamReader[] = [];
    for (let i = 0; i <= MAX_EVENT_STREAMS; i++) {
      const { reader } = await follow();
      await reader.waitFor(isType('hello'));
      readers.push(reader);
    }
    await readers[0]!.ended;
    await api.call('POST', '/api/v1/tools/alpha%3Aother/enable');
    await Promise.all(readers.slice(1).map((reader) => reader.waitFor((m) => isType('tool')(m) && (m as Event).tool?.user_disabled === false)));
    await Promise.all(readers.map((reader) => reader.cancel()));
  });

  it('ends every stream when the gateway stops', async () => {
    const { reader } = await follow();
    await reader.waitFor(isType('hello'));
    await gw.close();
    await reader.ended;
  });
});
