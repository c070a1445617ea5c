// OAuth logins to an HTTP upstream against a real authorization server (oidc-provider) and an
// upstream that accepts only its tokens: discovery, dynamic registration, PKCE, the state check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthWorld } from './oauth-world/oauth-world.js';

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
