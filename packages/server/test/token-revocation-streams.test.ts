// Revoking an agent token ends what it holds open: its 2025-11-25 sessions with their GET streams and
// its 2026-07-28 subscriptions/listen streams. Another token's streams stay up and keep hearing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { readEventStream, type EventStreamReader } from './event-stream-reader.js';
import { isListChanged, openListenStream } from './listen-request.js';
import { restClient, type RestClient } from './rest-client.js';

const LEGACY = '2025-11-25';

describe('revoking a token', () => {
  let dir: TempDir;
  let gw: TestGateway;
  let api: RestClient;
  beforeAll(async () => {
    dir = new TempDir();
    gw = await startTestGateway(dir, { servers: [fixtureServer('alpha', dir.tools('alpha', [{ name: 'echo', echo: true }, { name: 'add', echo: true }]))] });
    api = restClient(gw.gateway.origin!);
    await waitForState(gw.gateway, serverReady('alpha'));
  });
  afterAll(async () => {
    await gw.close();
    dir.remove();
  });

  async function createToken(name: string): Promise<string> {
    const created = await api.call('POST', '/api/v1/tokens', { body: { name, allowed_servers: ['*'] } });
    expect(created.status).toBe(201);
    return created.body.token as string;
  }

  /** A legacy session's standalone GET stream, open (its headers are in). */
  async function legacyStream(token: string): Promise<EventStreamReader> {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const init = await fetch(gw.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'revocation-test', version: '1' } } }) });
    const session = init.headers.get('mcp-session-id');
    await init.text();
    if (session === null) throw new Error(`no session (${init.status})`);
    const inSession = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': LEGACY };
    await (await fetch(gw.url, { method: 'POST', headers: inSession, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
    const stream = await fetch(gw.url, { method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': LEGACY } });
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    return readEventStream(stream);
  }

  it('ends its legacy GET streams and its listen streams; another token keeps its own and hears the next change', async () => {
    const doomed = await createToken('doomed');
    const kept = await createToken('kept');
    const doomedStreams = [await legacyStream(doomed), await openListenStream(gw.url, doomed), await openListenStream(gw.url, doomed)];
    const keptStreams = [await legacyStream(kept), await openListenStream(gw.url, kept)];
    let keptEnded = false;
    void Promise.race(keptStreams.map((stream) => stream.ended)).then(() => (keptEnded = true));

    const revoked = await api.call('DELETE', '/api/v1/tokens/doomed');
    expect([revoked.status, revoked.body.revoked]).toEqual([200, true]);
    // Each of the doomed token's streams sees its end (the bound is only a failure backstop).
    await Promise.all(doomedStreams.map((stream) => stream.ended));

    // The other token's streams are still up: they hear the next listing change.
    await gw.gateway.runtime.setToolDisabled('alpha', 'add', true);
    await Promise.all(keptStreams.map((stream) => stream.waitFor(isListChanged)));
    expect(keptEnded).toBe(false);
    expect(doomedStreams.flatMap((stream) => stream.messages).filter(isListChanged)).toEqual([]);
    for (const stream of keptStreams) await stream.cancel();
  });
});
