// POST /api/v1/preflight?as_token=NAME: the operator sees exactly what that agent token would see
// (checked against the token's own preflight, byte for byte but for the volatile fields), for a
// configured token and one created at run time; every refusal named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { restClient, withoutVolatile, type RestClient } from './rest-client.js';

const CONFIG_SECRET = 'as-token-config-secret-0123';
const BODY = { tools: [{ id: 'alpha:echo' }, { id: 'beta:echo' }, { id: 'ghost:x' }, { id: 'alpha:ech' }] };

let dir: TempDir;
let gw: TestGateway;
let api: RestClient;

beforeAll(async () => {
  dir = new TempDir();
  const tools = dir.tools('t', [{ name: 'echo', echo: true }]);
  gw = await startTestGateway(dir, {
    servers: [fixtureServer('alpha', tools), fixtureServer('beta', tools)],
    profiles: [{ name: 'only-beta', servers: ['beta'] }],
    agent_tokens: [{ name: 'cfg-alpha', token: CONFIG_SECRET, allowed_servers: ['alpha'] }],
  });
  await waitForState(gw.gateway, (s) => serverReady('alpha')(s) && serverReady('beta')(s));
  api = restClient(gw.gateway.origin!);
});
afterAll(async () => {
  await gw?.close();
  dir?.remove();
});

describe('POST /api/v1/preflight?as_token', () => {
  it('answers what a configured token sees: its scope, the agent tier (not_found for the rest, no hashes)', async () => {
    const asToken = await api.call('POST', '/api/v1/preflight?as_token=cfg-alpha', { body: BODY });
    const own = await restClient(gw.gateway.origin!, { bearer: CONFIG_SECRET }).preflight(BODY);
    expect(asToken.status).toBe(200);
    expect(withoutVolatile(asToken.text)).toEqual(withoutVolatile(own.text));
    expect(asToken.body.tools.map((tool: { reason?: string }) => tool.reason ?? 'ready')).toEqual(['ready', 'not_found', 'not_found', 'not_found']);
    expect(asToken.text).not.toContain('sha256/');
    // The operator's own answer differs: that is what the option is for.
    const operator = await api.preflight(BODY);
    expect(operator.body.tools.map((tool: { reason?: string }) => tool.reason ?? 'ready')).toEqual(['ready', 'ready', 'server_not_configured', 'not_found']);
  });

  it('answers what a run-time token with a profile pin sees, and refuses it once revoked', async () => {
    const created = await api.call('POST', '/api/v1/tokens', { body: { name: 'made', allowed_servers: ['*'], profile: 'only-beta' } });
    const asToken = await api.call('POST', '/api/v1/preflight?as_token=made', { body: BODY });
    const own = await restClient(gw.gateway.origin!, { bearer: created.body.token }).preflight(BODY);
    expect(withoutVolatile(asToken.text)).toEqual(withoutVolatile(own.text));
    expect(asToken.body.tools.map((tool: { reason?: string }) => tool.reason ?? 'ready')).toEqual(['not_found', 'ready', 'not_found', 'not_found']);
    await api.call('DELETE', '/api/v1/tokens/made');
    expect((await api.call('POST', '/api/v1/preflight?as_token=made', { body: BODY })).body).toMatchObject({ code: 'conflict', path: 'as_token' });
  });

  it('404 for an unknown name, 400 for a malformed one, 403 for an agent token, and no activity record for any of them', async () => {
    const before = (await api.call('GET', '/api/v1/activity?type=preflight')).body.records.length;
    expect((await api.call('POST', '/api/v1/preflight?as_token=nobody', { body: BODY })).body).toMatchObject({ code: 'not_found', path: 'as_token' });
    expect((await api.call('POST', '/api/v1/preflight?as_token=bad%20name', { body: BODY })).body).toMatchObject({ code: 'invalid_body', path: 'as_token' });
    const agent = await restClient(gw.gateway.origin!, { bearer: CONFIG_SECRET }).call('POST', '/api/v1/preflight?as_token=cfg-alpha', { body: BODY });
    expect(agent.body).toMatchObject({ code: 'forbidden', path: 'as_token' });
    expect((await api.call('GET', '/api/v1/activity?type=preflight')).body.records.length).toBe(before);
  });
});
