// POST /api/v1/servers/{name}/login (`mcpproxy auth login`) against a real gateway and a real HTTP
// fixture upstream that answers 401 without the right bearer token: every documented status, the
// credential kept out of every answer, and the oauth_required verdict clearing once it is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpFixture, type HttpFixture } from './fixture-process.js';
import { fixtureServer, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { restClient, type RestClient } from './rest-client.js';

const UPSTREAM_TOKEN = 'upstream-bearer-token-0123';
const AGENT_SECRET = 'agent-login-secret-0123';

let dir: TempDir;
let fixture: HttpFixture;
let gw: TestGateway;
let api: RestClient;

beforeAll(async () => {
  dir = new TempDir();
  fixture = await startHttpFixture(['--require-token', UPSTREAM_TOKEN]);
  const tools = dir.tools('local', [{ name: 'echo', echo: true }]);
  gw = await startTestGateway(dir, {
    tool_quarantine: false,
    servers: [{ name: 'web', url: fixture.url, quarantined: false }, { name: 'idle', url: fixture.url, quarantined: false, enabled: false }, fixtureServer('local', tools)],
    agent_tokens: [{ name: 'agent', token: AGENT_SECRET, allowed_servers: ['*'] }],
  });
  await waitForState(gw.gateway, (s) => s.snapshot.servers.get('web')?.connection.state === 'pending_auth');
  api = restClient(gw.gateway.origin!);
});
afterAll(async () => {
  await gw?.close();
  await fixture?.stop();
  dir?.remove();
});

const login = (name: string, body: unknown, client: RestClient = api) => client.call('POST', `/api/v1/servers/${name}/login`, { body });

describe('POST /api/v1/servers/{name}/login', () => {
  it('400 for a body that is not { token }, 404 for an unknown server, 409 for a stdio server', async () => {
    for (const body of [{}, { token: '' }, { token: 'has space' }, { token: 'x', extra: 1 }]) {
      const answer = await login('web', body);
      expect([answer.status, answer.body.code]).toEqual([400, 'invalid_body']);
    }
    const unknown = await login('ghost', { token: UPSTREAM_TOKEN });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
    const stdio = await login('local', { token: UPSTREAM_TOKEN });
    expect([stdio.status, stdio.body.code]).toEqual([409, 'conflict']);
  });

  it('401 without credentials and 403 for an agent token', async () => {
    expect((await login('web', { token: UPSTREAM_TOKEN }, restClient(gw.gateway.origin!, null))).status).toBe(401);
    expect((await login('web', { token: UPSTREAM_TOKEN }, restClient(gw.gateway.origin!, { bearer: AGENT_SECRET }))).status).toBe(403);
  });

  it('a wrong token leaves the server waiting for login (oauth_required)', async () => {
    const answer = await login('web', { token: 'not-the-right-token' });
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain('not-the-right-token');
    await waitForState(gw.gateway, (s) => s.snapshot.servers.get('web')?.connection.state === 'pending_auth' && s.snapshot.servers.get('web')?.connection.last_error !== undefined);
    const verdict = await api.preflight({ tools: [{ id: 'web:echo' }] });
    expect(verdict.body.tools[0].reason).toBe('oauth_required');
  });

  it('the right token: stored, reconnected, ready, and the oauth_required verdict clears', async () => {
    const answer = await login('web', { token: UPSTREAM_TOKEN });
    expect(answer.status).toBe(200);
    expect(answer.body.name).toBe('web');
    expect(answer.text).not.toContain(UPSTREAM_TOKEN);
    await waitForState(gw.gateway, (s) => s.snapshot.servers.get('web')?.connection.state === 'ready');
    const verdict = await api.preflight({ tools: [{ id: 'web:echo' }] });
    expect(verdict.body.verdict).toBe('ready');
    const servers = await api.call('GET', '/api/v1/servers');
    expect(servers.text).not.toContain(UPSTREAM_TOKEN);
  });

  it('a disabled server keeps the credential without reconnecting, and uses it once enabled', async () => {
    const answer = await login('idle', { token: UPSTREAM_TOKEN });
    expect([answer.status, answer.body.enabled]).toEqual([200, false]);
    expect((await api.call('POST', '/api/v1/servers/idle/enable')).status).toBe(200);
    await waitForState(gw.gateway, (s) => s.snapshot.servers.get('idle')?.connection.state === 'ready');
  });
});
