// How a 2025-11-25 session's POSTs are answered on the wire: one application/json body (never an SSE
// stream), a tools/list page sent as bytes prepared once per published state, the same bytes again
// while nothing changes, the new listing right after a change, and list_changed still on the GET
// stream. Batches and rider-carrying answers are built per request.
import { EXTENSION_ID } from '@mcpproxy/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type FixtureToolSpec, type TestGateway } from './gateway-harness.js';
import { connectListeningClient } from './listening-client.js';

const LEGACY = '2025-11-25';
const ALPHA: FixtureToolSpec[] = [
  { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'what to echo' } }, required: ['text'] }, annotations: { readOnlyHint: true } },
  { name: 'add', description: 'Adds', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
  { name: 'ünïcode', description: 'Non-ASCII name and description: ✓ 日本語' },
];
const BETA: FixtureToolSpec[] = [{ name: 'x', description: 'x' }, { name: 'y', description: 'y' }];
const ALL = ['describe_tool', 'alpha:add', 'alpha:echo', 'alpha:ünïcode', 'beta:x', 'beta:y'];

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly contentLength: string | null;
  readonly bytes: number;
  readonly text: string;
  readonly json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A raw 2025-11-25 session: POSTs answered whole, and the session's GET stream collected as it arrives. */
class RawLegacySession {
  readonly events: any[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  private nextId = 1;
  private stream?: AbortController;

  private constructor(
    private readonly url: string,
    private readonly sessionId: string,
  ) {}

  static async open(url: string, capabilities: Record<string, unknown> = {}): Promise<RawLegacySession> {
    const init = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LEGACY, capabilities, clientInfo: { name: 'raw', version: '1' } } }),
    });
    await init.arrayBuffer();
    const sessionId = init.headers.get('mcp-session-id');
    if (sessionId === null) throw new Error(`initialize answered ${init.status} without a session`);
    const session = new RawLegacySession(url, sessionId);
    await session.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return session;
  }

  get headers(): Record<string, string> {
    return { 'mcp-session-id': this.sessionId, 'mcp-protocol-version': LEGACY };
  }

  async post(message: unknown): Promise<Answer> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: { ...this.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(message),
    });
    const raw = Buffer.from(await response.arrayBuffer());
    const text = raw.toString('utf8');
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      contentLength: response.headers.get('content-length'),
      bytes: raw.length,
      text,
      json: text === '' ? undefined : JSON.parse(text),
    };
  }

  request(method: string, params?: Record<string, unknown>): Promise<Answer> {
    return this.post({ jsonrpc: '2.0', id: this.nextId++, method, ...(params === undefined ? {} : { params }) });
  }

  /** The standalone GET stream's content type, once its first event has arrived. */
  streamType?: string | null;

  /**
   * Opens the standalone GET stream and settles once its headers arrive (the gateway flushes them
   * at once); every SSE `data:` line then lands in `events`.
   */
  async listen(): Promise<void> {
    this.stream = new AbortController();
    const response = await fetch(this.url, { method: 'GET', headers: { ...this.headers, accept: 'text/event-stream' }, signal: this.stream.signal });
    this.streamType = response.headers.get('content-type');
    void this.collect(response).catch(() => undefined);
  }

  private async collect(response: Response): Promise<void> {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      let end: number;
      while ((end = buffered.indexOf('\n\n')) !== -1) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        for (const line of event.split('\n')) if (line.startsWith('data:') && line.length > 5) this.events.push(JSON.parse(line.slice(5)));
      }
    }
  }

  async close(): Promise<void> {
    this.stream?.abort();
    await fetch(this.url, { method: 'DELETE', headers: this.headers }).then((r) => r.arrayBuffer()).catch(() => undefined);
  }
}

function listChangedCount(session: RawLegacySession): number {
  return session.events.filter((e) => e.method === 'notifications/tools/list_changed').length;
}

async function listAllRaw(session: RawLegacySession): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const answer = await session.request('tools/list', cursor === undefined ? undefined : { cursor });
    expect(answer.contentType).toBe('application/json');
    names.push(...(answer.json.result.tools as { name: string }[]).map((t) => t.name));
    cursor = answer.json.result.nextCursor;
  } while (cursor !== undefined);
  return names;
}

describe('a 2025-11-25 session answers POSTs with one JSON body', () => {
  let dir: TempDir;
  let gw: TestGateway;
  beforeAll(async () => {
    dir = new TempDir();
    gw = await startTestGateway(dir, { page_size: 4, servers: [fixtureServer('alpha', dir.tools('alpha', ALPHA)), fixtureServer('beta', dir.tools('beta', BETA))] });
    await waitForState(gw.gateway, (s) => serverReady('alpha')(s) && serverReady('beta')(s));
  });
  afterAll(async () => {
    await gw?.close();
    dir?.remove();
  });

  it('tools/list: application/json with an exact Content-Length, the whole page, the same bytes while nothing changes', async () => {
    const session = await RawLegacySession.open(gw.url);
    try {
      const first = await session.request('tools/list');
      expect(first.status).toBe(200);
      expect(first.contentType).toBe('application/json');
      expect(Number(first.contentLength)).toBe(first.bytes);
      expect(first.json).toMatchObject({ jsonrpc: '2.0', id: 1 });
      expect(Object.keys(first.json).sort()).toEqual(['id', 'jsonrpc', 'result']);
      const page = first.json.result as { tools: { name: string; description?: string; inputSchema: unknown; annotations?: unknown }[]; nextCursor?: string };
      expect(page.tools.map((t) => t.name)).toEqual(ALL.slice(0, 4));
      expect(page.tools.find((t) => t.name === 'alpha:echo')).toEqual({ ...ALPHA[0], name: 'alpha:echo' });
      expect(page.tools.find((t) => t.name === 'alpha:ünïcode')?.description).toBe('Non-ASCII name and description: ✓ 日本語');
      expect(page.nextCursor).toEqual(expect.any(String));

      const again = await session.request('tools/list');
      expect(again.json.id).toBe(2);
      expect(again.json.result).toEqual(page);
      expect(again.text.replace('"id":2', '"id":1')).toBe(first.text);

      expect(await listAllRaw(session)).toEqual(ALL);
    } finally {
      await session.close();
    }
  });

  it("the GET stream's headers arrive at once, before any event", async () => {
    const session = await RawLegacySession.open(gw.url);
    const stream = new AbortController();
    try {
      const started = Date.now();
      // fetch() resolves on the headers: without a flush they waited for the first event or keep-alive.
      const response = await fetch(gw.url, { method: 'GET', headers: { ...session.headers, accept: 'text/event-stream' }, signal: stream.signal });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      stream.abort();
      await session.close();
    }
  });

  it('list_changed still arrives on the GET stream, and the next tools/list is the new listing (nothing stale)', async () => {
    const session = await RawLegacySession.open(gw.url);
    await session.listen();
    try {
      expect(await listAllRaw(session)).toEqual(ALL);
      await gw.gateway.runtime.setToolDisabled('beta', 'y', true);
      await expect.poll(() => listChangedCount(session), { timeout: 15_000 }).toBe(1);
      expect(session.streamType).toMatch(/^text\/event-stream/);
      expect(await listAllRaw(session)).toEqual(ALL.filter((n) => n !== 'beta:y'));
      await gw.gateway.runtime.setToolDisabled('alpha', 'add', true);
      await expect.poll(() => listChangedCount(session), { timeout: 15_000 }).toBe(2);
      expect(await listAllRaw(session)).toEqual(ALL.filter((n) => n !== 'beta:y' && n !== 'alpha:add'));
    } finally {
      await gw.gateway.runtime.setToolDisabled('beta', 'y', false);
      await gw.gateway.runtime.setToolDisabled('alpha', 'add', false);
      await session.close();
    }
    expect(session.events.every((e) => e.method !== undefined && e.id === undefined)).toBe(true); // no answer ever went to the GET stream
  });

  it('the SDK client lists everything across pages on 2025-11-25 and hears list_changed', async () => {
    const { client, streamOpen } = await connectListeningClient(gw.url);
    let heard = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void heard++);
    try {
      expect((await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name)).toEqual(ALL);
      await streamOpen;
      await gw.gateway.runtime.setToolDisabled('beta', 'x', true);
      await expect.poll(() => heard, { timeout: 15_000 }).toBe(1);
      expect((await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name)).toEqual(ALL.filter((n) => n !== 'beta:x'));
    } finally {
      await gw.gateway.runtime.setToolDisabled('beta', 'x', false);
      await client.close();
    }
  });

  it('a batch holding tools/list is answered whole, each response with its own result', async () => {
    const session = await RawLegacySession.open(gw.url);
    try {
      const answer = await session.post([
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
        { jsonrpc: '2.0', id: 'b', method: 'ping' },
      ]);
      expect(answer.status).toBe(200);
      expect(answer.contentType).toBe('application/json');
      const byId = new Map((answer.json as { id: string; result: any }[]).map((r) => [r.id, r.result])); // eslint-disable-line @typescript-eslint/no-explicit-any
      expect(byId.get('a').tools.map((t: { name: string }) => t.name)).toEqual(ALL.slice(0, 4));
      expect(byId.get('b')).toEqual({});
    } finally {
      await session.close();
    }
  });

  it('a negotiated rider rides its own answer; the plain answers around it stay plain', async () => {
    const session = await RawLegacySession.open(gw.url, { experimental: { [EXTENSION_ID]: { version: 1 } } });
    try {
      const before = await session.request('tools/list');
      const carried = await session.request('tools/list', { _meta: { [EXTENSION_ID]: { tools: [{ id: 'alpha:echo' }] } } });
      const after = await session.request('tools/list');
      expect(before.json.result._meta).toBeUndefined();
      expect(carried.contentType).toBe('application/json');
      expect(carried.json.result.tools).toEqual(before.json.result.tools);
      expect(carried.json.result._meta[EXTENSION_ID]).toMatchObject({ verdict: expect.any(String), tools: [expect.objectContaining({ id: 'alpha:echo' })] });
      expect(after.json.result).toEqual(before.json.result);
    } finally {
      await session.close();
    }
  });

  it('errors stay JSON-RPC errors of their own request (an undecodable cursor is -32602)', async () => {
    const session = await RawLegacySession.open(gw.url);
    try {
      const answer = await session.request('tools/list', { cursor: 'not a cursor!' });
      expect(answer.contentType).toBe('application/json');
      expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
    } finally {
      await session.close();
    }
  });
});
