// A client registered with the authorization server by hand: the configuration names its client_id
// and takes the secret from an environment variable, so none sits in the file. The gateway then
// registers nothing, authenticates to the token endpoint with the secret (client_secret_basic), for
// the code exchange and for refreshes alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateAndResolve } from '../src/config/gateway-config.js';
import { OAuthWorld } from './oauth-world/oauth-world.js';
import { readStoredLogin } from './oauth-world/stored-oauth.js';

const CLIENT_ID = 'mcpproxy-preregistered';
const SECRET_ENV = 'MCPPROXY_TEST_WEB_CLIENT_SECRET';
const SECRET = 'pre-registered-secret-0123456789abcdef';

let world: OAuthWorld;
beforeAll(async () => {
  process.env[SECRET_ENV] = SECRET;
  world = await OAuthWorld.start({
    accessTokenTtl: 60,
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: SECRET,
        redirect_uris: ['http://127.0.0.1:8799/oauth/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        application_type: 'native',
      },
    ],
  });
  await world.startGateway({ oauth: { client_id: CLIENT_ID, client_secret_env: SECRET_ENV } });
  await world.waitForWeb('pending_auth');
});
afterAll(async () => {
  await world?.close();
  delete process.env[SECRET_ENV];
});

describe('a pre-registered OAuth client', () => {
  it('logs in with the configured client_id, registering nothing', async () => {
    const { started, query } = await world.authorize();
    expect(new URL(started['authorization_url'] as string).searchParams.get('client_id')).toBe(CLIENT_ID);
    expect((await world.callback(query)).status).toBe(200);
    await world.waitForWeb('ready');
    expect(world.as.registrations.count).toBe(0);
    expect(readStoredLogin(world.storePath, 'web')?.client_id).toBeUndefined();
    expect((await world.rest('GET', '/auth')).body['servers']).toEqual([expect.objectContaining({ login: 'logged_in', client: 'configured' })]);
    expect(await world.callEcho('configured')).toContain('configured');
  });

  it('refreshes with the client secret', async () => {
    await world.advance(60_000);
    await world.until(() => world.as.grants.refresh_token === 1);
    expect(await world.callEcho('refreshed')).toContain('refreshed');
  });
});

describe('its configuration', () => {
  const server = (oauth: Record<string, unknown>, transport: Record<string, unknown> = { url: 'http://127.0.0.1:1/mcp' }) => ({ servers: [{ name: 'web', ...transport, oauth }] });

  it('an unset secret variable is a configuration error naming the server, the variable and where', () => {
    const loaded = validateAndResolve(server({ client_id: CLIENT_ID, client_secret_env: 'MCPPROXY_TEST_UNSET_VARIABLE' }), 'mcpproxy.json');
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    expect(loaded.error).toMatchObject({ code: 'config_invalid', path: '/servers/0/oauth/client_secret_env' });
    expect(loaded.error.message).toContain('MCPPROXY_TEST_UNSET_VARIABLE');
  });

  it('a secret without a client_id, both kinds of secret, or oauth on a stdio server are refused', () => {
    for (const value of [
      server({ client_secret: 'x' }),
      server({ client_id: 'a', client_secret: 'x', client_secret_env: SECRET_ENV }),
      server({ client_id: 'a' }, { command: 'node' }),
    ]) {
      expect(validateAndResolve(value, 'mcpproxy.json').ok).toBe(false);
    }
  });

  it('the secret is read from the environment into the resolved server', () => {
    const loaded = validateAndResolve(server({ client_id: CLIENT_ID, client_secret_env: SECRET_ENV, scopes: ['mcp:tools'] }), 'mcpproxy.json');
    expect(loaded.ok && loaded.config.servers[0]!.oauth).toEqual({ client_id: CLIENT_ID, client_secret: SECRET, scopes: ['mcp:tools'] });
  });
});
