// A gateway deployed for a team: listening on every interface, tokens required on /mcp, reached under
// a DNS name (gw.example.test) that allowed_hosts names. The traffic still goes to 127.0.0.1; only the
// Host header says which name the client used, exactly as behind DNS or a load balancer.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateAndResolve } from '../src/config/gateway-config.js';
import { fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type Era, type TestGateway } from './gateway-harness.js';
import { fetchWithHost } from './host-header-fetch.js';

const AGENT = 'network-agent-secret-0123456789';
const NAME = 'gw.example.test';

describe('a network deployment behind a configured host name', () => {
  let dir: TempDir;
  let gw: TestGateway;
  let port: number;
  beforeAll(async () => {
    dir = new TempDir();
    const tools = dir.tools('alpha', [{ name: 'echo', echo: true }]);
    gw = await startTestGateway(dir, {
      listen: '0.0.0.0:0',
      require_mcp_auth: true,
      allowed_hosts: [NAME, 'pinned.example.test:8443'],
      allowed_origins: ['https://console.example.test'],
      servers: [fixtureServer('alpha', tools)],
      agent_tokens: [{ name: 'team', token: AGENT, allowed_servers: ['alpha'] }],
    });
    port = Number(new URL(gw.gateway.origin!).port);
    await waitForState(gw.gateway, serverReady('alpha'));
  });
  afterAll(async () => {
    await gw.close();
    dir.remove();
  });

  /** The gateway's real address, with the name the client used in Host. */
  function via(host: string, headers: Record<string, string> = {}) {
    const fetch = fetchWithHost(host, headers);
    return (path: string, init: RequestInit = {}) => fetch(`http://127.0.0.1:${port}${path}`, init);
  }

  async function preflight(host: string, headers: Record<string, string> = {}) {
    const answer = await via(host, headers)('/api/v1/preflight', {
      method: 'POST',
      headers: { authorization: `Bearer ${AGENT}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tools: [{ id: 'alpha:echo' }] }),
    });
    return { status: answer.status, body: (await answer.json()) as { verdict?: string; code?: string } };
  }

  it.each<Era>(['legacy', 'modern'])('an agent token lists tools over MCP (%s) through the configured name', async (era) => {
    const client = new Client({ name: 'net-test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      fetch: fetchWithHost(NAME),
      requestInit: { headers: { authorization: `Bearer ${AGENT}` } },
    });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['describe_tool', 'alpha:echo']);
    } finally {
      await client.close();
    }
  });

  it('an agent token gets a REST preflight through the name, on any port, and as its own browser origin', async () => {
    expect(await preflight(NAME)).toEqual({ status: 200, body: expect.objectContaining({ verdict: 'ready' }) });
    expect((await preflight(`${NAME}:443`)).status).toBe(200);
    expect((await preflight(`GW.Example.Test:${port}`)).status).toBe(200);
    expect((await preflight(NAME, { origin: `https://${NAME}` })).status).toBe(200);
    expect((await preflight(`127.0.0.1:${port}`, { origin: 'https://console.example.test' })).status).toBe(200);
  });

  it('an entry with a port accepts that port only (a Host without one counts as 80 or 443)', async () => {
    expect((await preflight('pinned.example.test:8443')).status).toBe(200);
    expect((await preflight('pinned.example.test:9443')).body).toMatchObject({ code: 'forbidden' });
    expect((await preflight('pinned.example.test')).status).toBe(403);
  });

  it('a name the configuration does not list is refused with 403, on REST and MCP', async () => {
    expect(await preflight('other.example.test')).toEqual({ status: 403, body: expect.objectContaining({ code: 'forbidden' }) });
    expect((await preflight(`other.example.test:${port}`)).status).toBe(403);
    const mcp = await via('other.example.test')('/mcp', { method: 'POST', headers: { authorization: `Bearer ${AGENT}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(mcp.status).toBe(403);
  });

  it('a DNS-rebinding attempt is refused: an attacker name in Host, or an attacker page as Origin', async () => {
    // The attacker's name resolved to this machine: the browser says that name in Host and its page as Origin.
    expect((await preflight(`attacker.example:${port}`, { origin: `http://attacker.example:${port}` })).status).toBe(403);
    expect((await preflight('attacker.example', { origin: 'http://attacker.example' })).status).toBe(403);
    // A page elsewhere calling the gateway under its real name (Origin alone gives it away).
    expect((await preflight(NAME, { origin: 'http://attacker.example' })).body).toMatchObject({ code: 'forbidden', message: expect.stringContaining('Origin not allowed') });
    expect((await preflight(NAME, { origin: 'null' })).status).toBe(403);
  });

  it('/healthz answers whatever the Host, since a load balancer checks the instance by its address', async () => {
    const health = await via(`10.0.0.7:${port}`)('/healthz');
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
  });
});

describe('allowed_hosts and allowed_origins in the configuration', () => {
  it('a malformed entry is a configuration error naming it', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ allowed_hosts: ['http://gw.example.test'] }, '/allowed_hosts/0'],
      [{ allowed_hosts: ['gw.example.test', 'gw.example.test:99999'] }, '/allowed_hosts/1: "gw.example.test:99999": port 99999 is outside 1..65535'],
      [{ allowed_hosts: ['999.1.2.3'] }, '/allowed_hosts/0: "999.1.2.3": 999.1.2.3 is not a host name or an IP address'],
      [{ allowed_origins: ['https://console.example.test/'] }, '/allowed_origins/0'],
      [{ allowed_origins: ['https://console.example.test:0'] }, '/allowed_origins/0: "https://console.example.test:0": port 0 is outside 1..65535'],
    ];
    for (const [extra, expected] of cases) {
      const loaded = validateAndResolve({ servers: [], api_key: 'test-admin-key-0123456789', data_dir: '/nonexistent-never-created', ...extra }, '/cfg.json');
      expect(loaded.ok ? 'accepted' : loaded.error.message, JSON.stringify(extra)).toContain(`/cfg.json: ${expected}`);
    }
  });
});
