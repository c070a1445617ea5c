// OAuth logins to an HTTP upstream against a real authorization server (oidc-provider) and an
// upstream that accepts only its tokens: discovery, dynamic registration, PKCE, the state check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthWorld } from './oauth-world/oauth-world.js';
import { readStoredLogin } from './oauth-world/stored-oauth.js';

let world: OAuthWorld;
beforeAll(async () => {
  world = await OAuthWorld.start();
  await world.startGateway();
  await world.waitForWeb('pending_auth');
});
afterAll(async () => {
  await world?.close();
});

describe('OAuth login of an HTTP upstream (dynamic registration)', () => {
  it('before: oauth_required with the command that logs in', async () => {
    const tool = await world.preflight();
    expect([tool['reason'], tool['action']]).toEqual(['oauth_required', 'login']);
    const status = await world.rest('GET', '/auth');
    expect(status.body['servers']).toEqual([{ name: 'web', transport: 'http', login: 'needed', last_error: expect.stringContaining('401') }]);
  });

  it('login: discovery, registration, consent, code exchange; then ready and a call goes through', async () => {
    await world.login();
    expect((await world.preflight())['status']).toBe('ready');
    expect(await world.callEcho('hello')).toContain('hello');
    const status = await world.rest('GET', '/auth');
    expect(status.body['servers']).toEqual([
      { name: 'web', transport: 'http', login: 'logged_in', method: 'oauth', client: 'registered', expires_at: expect.any(String), refreshable: true, scopes: expect.arrayContaining(['mcp:tools']) },
    ]);
  });
});

describe('the redirect is authenticated by its state alone', () => {
  it('a wrong state is refused (400 invalid_state) and changes nothing; the right one then works, once', async () => {
    await world.rest('POST', '/servers/web/logout');
    await world.waitForWeb('pending_auth');
    const { query } = await world.authorize();
    const forged = new URLSearchParams(query);
    forged.set('state', `${query.get('state')!}x`);
    const refused = await world.callback(forged);
    expect([refused.status, refused.body['code'], refused.body['path']]).toEqual([400, 'invalid_state', '/state']);
    expect(world.as.grants.authorization_code).toBe(1);
    expect((await world.preflight())['reason']).toBe('oauth_required');

    const accepted = await world.callback(query);
    expect([accepted.status, accepted.body]).toEqual([200, { server: 'web' }]);
    await world.waitForWeb('ready');
    const replayed = await world.callback(query);
    expect([replayed.status, replayed.body['code']]).toEqual([400, 'invalid_state']);
  });

  it('a state past its 10 minutes is refused, and spent', async () => {
    const { query } = await world.authorize();
    await world.advance(10 * 60_000 + 1);
    const late = await world.callback(query);
    expect([late.status, late.body['code']]).toEqual([400, 'invalid_state']);
    expect(late.body['message']).toContain('expired');
    expect((await world.callback(query)).body['message']).toContain('unknown');
  });

  it('a redirect carrying an error (the user said no) is 502 oauth_failed, and nothing is stored', async () => {
    const started = await world.rest('POST', '/servers/web/oauth/login');
    const state = new URL(started.body['authorization_url'] as string).searchParams.get('state')!;
    const denied = await world.callback(new URLSearchParams({ state, error: 'access_denied', iss: world.as.issuer }));
    expect([denied.status, denied.body['code']]).toEqual([502, 'oauth_failed']);
    expect(denied.body['message']).toContain('access_denied');
  });

  it('the callback needs no credential, every other OAuth endpoint the admin key', async () => {
    for (const [method, path] of [['POST', '/servers/web/oauth/login'], ['POST', '/servers/web/logout'], ['GET', '/auth']] as const) {
      expect((await world.rest(method, path, undefined, {})).status).toBe(401);
    }
    const token = await world.rest('POST', '/tokens', { name: 'agent', allowed_servers: ['*'] });
    const agent = { authorization: `Bearer ${token.body['token'] as string}` };
    for (const [method, path] of [['POST', '/servers/web/oauth/login'], ['POST', '/servers/web/logout'], ['GET', '/auth']] as const) {
      expect((await world.rest(method, path, undefined, agent)).status).toBe(403);
    }
    expect((await world.rest('POST', '/oauth/callback', { state: 'nope', code: 'x' }, {})).status).toBe(400);
    expect((await world.rest('POST', '/oauth/callback', { state: 'nope', code: 'x', extra: 1 }, {})).body['code']).toBe('invalid_body');
  });
});

describe('logout', () => {
  it('forgets the tokens and the registration: the upstream waits for a login again', async () => {
    expect((await world.rest('GET', '/auth')).body['servers']).toEqual([expect.objectContaining({ login: 'logged_in', method: 'oauth' })]);
    const out = await world.rest('POST', '/servers/web/logout');
    expect([out.status, out.body['name']]).toEqual([200, 'web']);
    await world.waitForWeb('pending_auth');
    expect((await world.preflight())['reason']).toBe('oauth_required');
    expect((await world.rest('GET', '/auth')).body['servers']).toEqual([expect.objectContaining({ login: 'needed' })]);
    expect(readStoredLogin(world.storePath, 'web')).toBeUndefined();
  });
});
