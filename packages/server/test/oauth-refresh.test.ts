// Token lifetimes against a real authorization server: the gateway refreshes an access token before
// it expires (on its injected clock, which is also the upstream's idea of expiry), a refresh token the
// authorization server revoked puts the server back in pending_auth (oauth_required) at once, and a
// gateway restarted on the same data directory logs in with the stored tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthWorld } from './oauth-world/oauth-world.js';
import { readStoredLogin } from './oauth-world/stored-oauth.js';

const TTL_S = 60;

let world: OAuthWorld;
beforeAll(async () => {
  world = await OAuthWorld.start({ accessTokenTtl: TTL_S });
  await world.startGateway();
  await world.waitForWeb('pending_auth');
  await world.login();
});
afterAll(async () => {
  await world?.close();
});

describe('refresh before expiry', () => {
  it('a new access token is fetched ahead of the expiry, and calls after the old expiry need no retry', async () => {
    const first = readStoredLogin(world.storePath, 'web')!;
    expect(first.tokens_expire_at).toBe(world.clock.now() + TTL_S * 1000);
    expect(world.as.grants.refresh_token).toBe(0);

    // A fifth of the lifetime ahead: at 48 s. Nothing happens before.
    await world.advance(47_000);
    expect(world.as.grants.refresh_token).toBe(0);
    await world.advance(1_000);
    await world.until(() => world.as.grants.refresh_token === 1);
    await world.until(() => readStoredLogin(world.storePath, 'web')!.access_token !== first.access_token);
    const second = readStoredLogin(world.storePath, 'web')!;
    expect(second.tokens_expire_at).toBe(48_000 + TTL_S * 1000);

    // Past the first token's expiry the upstream would refuse it; the gateway sends the new one.
    await world.advance(20_000);
    const refusedBefore = world.upstream.unauthorized;
    expect(await world.callEcho('after expiry')).toContain('after expiry');
    expect(world.upstream.unauthorized).toBe(refusedBefore);
    expect(world.gateway.gateway.runtime.current().snapshot.servers.get('web')!.connection.state).toBe('ready');
  });
});

describe('a gateway restarted on the same data directory', () => {
  it('connects with the stored tokens: ready without a login, and still refreshing', async () => {
    const grants = world.as.grants.authorization_code;
    await world.gateway.close();
    await world.startGateway();
    await world.waitForWeb('ready');
    expect((await world.preflight())['status']).toBe('ready');
    expect(await world.callEcho('restarted')).toContain('restarted');
    expect(world.as.grants.authorization_code).toBe(grants);
    const refreshes = world.as.grants.refresh_token;
    await world.advance(TTL_S * 1000);
    await world.until(() => world.as.grants.refresh_token === refreshes + 1);
  });
});

describe('a refresh token the authorization server revoked', () => {
  it('puts the server in pending_auth at the next refresh, before any call fails: oauth_required', async () => {
    const stored = readStoredLogin(world.storePath, 'web')!;
    const revoked = await fetch(`${world.as.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: stored.refresh_token!, token_type_hint: 'refresh_token', client_id: stored.client_id! }),
    });
    expect(revoked.status).toBe(200);
    const calls = world.upstream.calls;

    await world.advance(TTL_S * 1000);
    await world.waitForWeb('pending_auth');
    const tool = await world.preflight();
    expect([tool['status'], tool['reason'], tool['action']]).toEqual(['unavailable', 'oauth_required', 'login']);
    expect(tool['remediation']).toContain('mcpproxy auth login web');
    const web = world.gateway.gateway.runtime.current().snapshot.servers.get('web')!;
    expect(web.connection.last_error).toContain('invalid_grant');
    expect(readStoredLogin(world.storePath, 'web')!.refresh_token).toBeUndefined();
    expect(world.upstream.calls).toBe(calls);
    expect((await world.rest('GET', '/auth')).body['servers']).toEqual([expect.objectContaining({ login: 'needed' })]);

    // And a new login is the way out.
    await world.login();
    expect((await world.preflight())['status']).toBe('ready');
  });
});
