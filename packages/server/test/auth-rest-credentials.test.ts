// REST credentials: the admin key (X-API-Key or Bearer) is the operator tier; agent tokens from the
// config and from a real store are the agent tier with their scope; anything else is refused, and a
// wrong credential never falls back to another one. Secrets are compared as SHA-256 digests.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authenticateRestRequest, type RestCredentials } from '../src/auth/rest-authentication.js';
import { secretDigest } from '../src/auth/secret-digest.js';
import { validateAndResolve } from '../src/config/gateway-config.js';
import { createAgentTokenLookup, sha256Hex } from '../src/http/agent-token-lookup.js';
import { openStore, type Store } from '../src/store/store.js';
import { cleanupAfterEach } from './cleanup-after-each.js';

const { defer, scratch } = cleanupAfterEach();
const ADMIN = 'admin-key-0123456789abcdef';

async function credentials(): Promise<{ credentials: RestCredentials; store: Store }> {
  const opened = openStore(scratch().file('data'));
  if (!opened.ok) throw new Error(opened.error.message);
  defer(() => opened.store.close());
  await opened.store.markServersKnown(['alpha']);
  await opened.store.createAgentToken({ name: 'stored', token_sha256: sha256Hex('stored-secret-0123456789'), allowed_servers: ['alpha'], profile: 'p' });
  await opened.store.createAgentToken({ name: 'revoked', token_sha256: sha256Hex('revoked-secret-0123456789'), allowed_servers: ['*'] });
  await opened.store.revokeAgentToken('revoked');
  const tokens = createAgentTokenLookup(
    [
      { name: 'config', sha256: sha256Hex('config-secret-0123456789'), allowed_servers: '*' },
      { name: 'pinned', sha256: createHash('sha256').update('pinned-secret-0123456789').digest('hex'), allowed_servers: ['alpha'], profile: 'p' },
    ],
    opened.store,
  );
  return { credentials: { adminKey: secretDigest(ADMIN), tokens }, store: opened.store };
}

const auth = (c: RestCredentials, apiKey?: string, authorization?: string) => authenticateRestRequest({ apiKey, authorization }, c);

describe('REST authentication', () => {
  it('the admin key gives the operator tier, by X-API-Key or by Bearer', async () => {
    const { credentials: c } = await credentials();
    for (const result of [await auth(c, ADMIN), await auth(c, undefined, `Bearer ${ADMIN}`), await auth(c, undefined, `bearer   ${ADMIN}  `)]) {
      expect(result).toEqual({ ok: true, principal: { tier: 'operator', scope: { allowed_servers: '*' } } });
    }
  });

  it('agent tokens from the config and from the store give the agent tier with their scope', async () => {
    const { credentials: c } = await credentials();
    expect(await auth(c, undefined, 'Bearer config-secret-0123456789')).toEqual({ ok: true, principal: { tier: 'agent', tokenName: 'config', scope: { allowed_servers: '*' } } });
    expect(await auth(c, undefined, 'Bearer pinned-secret-0123456789')).toEqual({
      ok: true,
      principal: { tier: 'agent', tokenName: 'pinned', scope: { allowed_servers: ['alpha'], profile_pin: 'p' } },
    });
    expect(await auth(c, undefined, 'Bearer stored-secret-0123456789')).toEqual({
      ok: true,
      principal: { tier: 'agent', tokenName: 'stored', scope: { allowed_servers: ['alpha'], profile_pin: 'p' } },
    });
  });

  it('refuses a missing, malformed, unknown or revoked credential, and never falls back from a wrong X-API-Key', async () => {
    const { credentials: c } = await credentials();
    const refused: [string | undefined, string | undefined, string][] = [
      [undefined, undefined, 'Authorization'],
      ['', '  ', 'Authorization'],
      [undefined, 'Basic YWxhZGRpbjpvcGVuc2VzYW1l', 'Authorization'],
      [undefined, 'Bearer', 'Authorization'],
      [undefined, 'Bearer two words', 'Authorization'],
      [undefined, 'Bearer unknown-secret-0123456789', 'Authorization'],
      [undefined, 'Bearer revoked-secret-0123456789', 'Authorization'],
      ['not-the-admin-key', `Bearer ${ADMIN}`, 'X-API-Key'],
      ['config-secret-0123456789', undefined, 'X-API-Key'],
    ];
    for (const [apiKey, authorization, path] of refused) {
      const result = await auth(c, apiKey, authorization);
      expect(result.ok, `${apiKey} / ${authorization}`).toBe(false);
      if (!result.ok) expect(result.path).toBe(path);
    }
  });

  it('a secret digest matches exactly its own secret, whatever the lengths', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), fc.string({ maxLength: 200 }), (secret, presented) => {
        const digest = secretDigest(secret);
        expect(digest.matches(secret)).toBe(true);
        expect(digest.matches(presented)).toBe(presented === secret);
        expect(digest.matches(`${secret} `)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('a config token naming an unknown profile is a configuration error at start-up', () => {
    const result = validateAndResolve(
      { data_dir: scratch().file('data'), api_key: ADMIN, servers: [], agent_tokens: [{ name: 't', token: 'token-secret-0123456789', allowed_servers: ['*'], profile: 'ghost' }] },
      'config.json',
    );
    expect(result.ok ? undefined : [result.error.code, result.error.path]).toEqual(['config_invalid', '/agent_tokens/0/profile']);
  });
});
