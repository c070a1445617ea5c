// The HTTP server and the two-revision MCP wiring, exercised with a throwaway in-test server
// factory (the real gateway surface has its own tests): sessions, identity, Host/Origin guard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { healthzRoute } from '../src/http/healthz-route.js';
import { startHttpServer, type RunningHttpServer } from '../src/http/http-server.js';
import { createAgentTokenLookup, sha256Hex } from '../src/http/agent-token-lookup.js';
import { mcpRoute } from '../src/http/mcp-route.js';
import { createMcpEndpoint, type McpEndpoint } from '../src/mcp/mcp-endpoint.js';
import type { McpSessionContext } from '../src/mcp/mcp-identity.js';
import type { EventStreamReader } from './event-stream-reader.js';
import { isListChanged, openListenStream } from './listen-request.js';

const TOKEN = 'secret-token-for-tests';

function probeServer(context: McpSessionContext): Server {
  const server = new Server({ name: 'probe', version: '0.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler('tools/list', () => ({
    tools: [{ name: 'probe', inputSchema: { type: 'object' } }],
    _meta: {
      'test/era': context.era,
      'test/scope': context.identity.scope,
      'test/declared': server.getClientCapabilities()?.experimental ?? null,
    },
  }));
  return server;
}

async function startProbeGateway(requireAuth: boolean): Promise<{ http: RunningHttpServer; endpoint: McpEndpoint }> {
  const endpoint = createMcpEndpoint({ createServer: probeServer });
  const policy = {
    tokens: createAgentTokenLookup([{ name: 'ci', sha256: sha256Hex(TOKEN), allowed_servers: ['alpha'], profile: 'dev' }]),
    requireAuth,
    profileExists: (name: string) => name === 'dev',
  };
  const http = await startHttpServer({ listen: { host: '127.0.0.1', port: 0 }, routes: [healthzRoute, mcpRoute(endpoint, policy)] });
  return { http, endpoint };
}

function transport(url: string, token?: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } });
}

async function rawListTools(client: Client): Promise<{ _meta?: Record<string, unknown> }> {
  return (await client.request({ method: 'tools/list', params: {} })) as { _meta?: Record<string, unknown> };
}

describe('gateway HTTP server with the two-revision MCP endpoint', () => {
  let gateway: { http: RunningHttpServer; endpoint: McpEndpoint };
  beforeAll(async () => {
    gateway = await startProbeGateway(false);
  });
  afterAll(async () => {
    await gateway.endpoint.close();
    await gateway.http.close();
  });

  it('answers /healthz without auth', async () => {
    const res = await fetch(`${gateway.http.origin}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('rejects a foreign Host or Origin with 403 and accepts loopback ones on the listen port', async () => {
    const port = gateway.http.port;
    const status = (host: string, origin?: string) => rawStatus(port, host, origin);
    expect(await status('evil.example.com')).toBe(403);
    expect(await status(`evil.example.com:${port}`)).toBe(403);
    expect(await status(`localhost:${port + 1}`)).toBe(403);
    expect(await status(`127.0.0.1:${port}`, 'http://evil.example.com')).toBe(403);
    expect(await status(`127.0.0.1:${port}`, 'null')).toBe(403);
    // Past the guard, a path no route owns is a 404.
    expect(await status(`127.0.0.1:${port}`)).toBe(404);
    expect(await status(`localhost:${port}`, `http://localhost:${port}`)).toBe(404);
    expect(await status(`[::1]:${port}`)).toBe(404);
  });

  it('serves 2025-11-25 with a real session that remembers what the client declared at initialize', async () => {
    const client = new Client({ name: 't', version: '1' }, { capabilities: { experimental: { 'example/ext': { version: 1 } } } });
    const t = transport(`${gateway.http.origin}/mcp`);
    await client.connect(t);
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(t.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const first = await rawListTools(client);
    const second = await rawListTools(client);
    expect(first._meta?.['test/era']).toBe('legacy');
    expect(second._meta?.['test/declared']).toEqual({ 'example/ext': { version: 1 } });
    await t.terminateSession();
    await client.close();
  });

  it('serves 2026-07-28 statelessly with the identity of each request', async () => {
    const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(transport(`${gateway.http.origin}/mcp/p/dev`, TOKEN));
    const result = await rawListTools(client);
    expect(result._meta?.['test/era']).toBe('modern');
    expect(result._meta?.['test/scope']).toEqual({ allowed_servers: ['alpha'], profile_pin: 'dev', active_profile: 'dev' });
    await client.close();
  });

  it('binds a legacy session to the identity that opened it', async () => {
    const client = new Client({ name: 't', version: '1' });
    const t = transport(`${gateway.http.origin}/mcp`);
    await client.connect(t);
    const sessionId = t.sessionId!;
    const asOther = await postList(`${gateway.http.origin}/mcp`, { 'mcp-session-id': sessionId, authorization: `Bearer ${TOKEN}` });
    expect(asOther.status).toBe(404);
    const onOtherPath = await postList(`${gateway.http.origin}/mcp/p/dev`, { 'mcp-session-id': sessionId });
    expect(onOtherPath.status).toBe(404);
    const same = await postList(`${gateway.http.origin}/mcp`, { 'mcp-session-id': sessionId });
    expect(same.status).toBe(200);
    expect((await postList(`${gateway.http.origin}/mcp`, { 'mcp-session-id': 'no-such-session' })).status).toBe(404);
    await client.close();
  });

  it('refuses an unknown token with 401 and an unknown profile with 404', async () => {
    expect((await postList(`${gateway.http.origin}/mcp`, { authorization: 'Bearer nope' })).status).toBe(401);
    expect((await postList(`${gateway.http.origin}/mcp`, { authorization: 'Basic abc' })).status).toBe(401);
    expect((await postList(`${gateway.http.origin}/mcp/p/nope`, {})).status).toBe(404);
    expect((await fetch(`${gateway.http.origin}/elsewhere`)).status).toBe(404);
  });
});

describe('require_mcp_auth', () => {
  it('answers 401 without a token and serves with one', async () => {
    const gateway = await startProbeGateway(true);
    try {
      const res = await postList(`${gateway.http.origin}/mcp`, {});
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      // Without a credential, a profile that exists and one that does not look the same.
      for (const path of ['/mcp/p/dev', '/mcp/p/nope']) expect((await postList(`${gateway.http.origin}${path}`, {})).status, path).toBe(401);
      expect((await postList(`${gateway.http.origin}/mcp/p/nope`, { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
      const client = new Client({ name: 't', version: '1' });
      await client.connect(transport(`${gateway.http.origin}/mcp`, TOKEN));
      expect((await rawListTools(client))._meta?.['test/scope']).toEqual({ allowed_servers: ['alpha'], profile_pin: 'dev' });
      await client.close();
    } finally {
      await gateway.endpoint.close();
      await gateway.http.close();
    }
  });
});

describe('2025-11-25 sessions over the cap', () => {
  it('a flood of sessions from one identity evicts its own, not another agent\'s', async () => {
    const endpoint = createMcpEndpoint({ createServer: probeServer, maxLegacySessions: 3 });
    const policy = {
      tokens: createAgentTokenLookup([{ name: 'ci', sha256: sha256Hex(TOKEN), allowed_servers: ['alpha'], profile: 'dev' }]),
      requireAuth: false,
      profileExists: (name: string) => name === 'dev',
    };
    const http = await startHttpServer({ listen: { host: '127.0.0.1', port: 0 }, routes: [mcpRoute(endpoint, policy)] });
    const legacy = () => new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: 'legacy' } });
    const clients: Client[] = [];
    try {
      const agent = legacy();
      clients.push(agent);
      await agent.connect(transport(`${http.origin}/mcp`, TOKEN));
      for (let i = 0; i < 6; i++) {
        const anonymous = legacy();
        clients.push(anonymous);
        await anonymous.connect(transport(`${http.origin}/mcp`));
      }
      expect([...endpoint.legacySessions()]).toHaveLength(3);
      // The agent's session, the oldest of all, is still there and answers.
      expect((await rawListTools(agent))._meta?.['test/scope']).toEqual({ allowed_servers: ['alpha'], profile_pin: 'dev' });
    } finally {
      for (const client of clients) await client.close().catch(() => undefined);
      await endpoint.close();
      await http.close();
    }
  });
});

describe('2026-07-28 listen streams over the cap', () => {
  it("a caller holding every slot loses its own oldest stream to a token holder's listen, never the token holder's", async () => {
    const endpoint = createMcpEndpoint({ createServer: probeServer, maxListenStreams: 3 });
    const policy = {
      tokens: createAgentTokenLookup([{ name: 'ci', sha256: sha256Hex(TOKEN), allowed_servers: ['alpha'] }]),
      requireAuth: false,
      profileExists: () => false,
    };
    const http = await startHttpServer({ listen: { host: '127.0.0.1', port: 0 }, routes: [mcpRoute(endpoint, policy)] });
    const url = `${http.origin}/mcp`;
    const streams: EventStreamReader[] = [];
    try {
      const anonymous = [await openListenStream(url), await openListenStream(url), await openListenStream(url)];
      streams.push(...anonymous);
      // The token holder's listen is served, at the cost of the anonymous caller's oldest stream.
      const agent = await openListenStream(url, TOKEN);
      streams.push(agent);
      await anonymous[0]!.ended;
      // The anonymous caller opening more keeps evicting its own streams, oldest first.
      streams.push(await openListenStream(url));
      await anonymous[1]!.ended;
      endpoint.notifyModernToolsChanged();
      await agent.waitFor(isListChanged);
      await anonymous[2]!.waitFor(isListChanged);
    } finally {
      for (const stream of streams) await stream.cancel();
      await endpoint.close();
      await http.close();
    }
  });
});

// A legacy-looking (claim-less) tools/list POST: the shape a 2025 client sends inside its session.
function postList(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}

// fetch() will not forge Host, so the guard is probed over a raw socket (on a path no route owns:
// /healthz answers whatever the Host).
async function rawStatus(port: number, host: string, origin?: string): Promise<number> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/no-such-route', method: 'GET', headers: { host, ...(origin === undefined ? {} : { origin }) }, setHost: false },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
