// A secret that means two things silently takes the wider one: config tokens are matched before
// run-time tokens and the admin key before any token. Every way a configured secret can meet a
// run-time token's secret is refused: at start (the store already holds it) and at creation.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATOR } from '../src/auth/rest-principal.js';
import { secretDigest } from '../src/auth/secret-digest.js';
import { validateAndResolve } from '../src/config/gateway-config.js';
import { startGateway } from '../src/gateway.js';
import { createAgentTokenLookup, sha256Hex } from '../src/http/agent-token-lookup.js';
import type { RestRequest } from '../src/rest/rest-endpoint.js';
import { tokenEndpoints } from '../src/rest/token-endpoints.js';
import { openStore } from '../src/store/store.js';
import { fixtureServer, startTestGateway, TempDir } from './gateway-harness.js';
import { ADMIN_KEY, restClient } from './rest-client.js';

let dir: TempDir;
afterEach(() => dir.remove());

describe('a configured secret that a run-time token in the store already has', () => {
  it.each([
    ['an agent token', (secret: string) => ({ agent_tokens: [{ name: 'ci', token: secret, allowed_servers: ['*'] }] }), 'agent_tokens[0] ("ci") has the secret of the run-time token "narrow"'],
    ['an agent token by its hash', (secret: string) => ({ agent_tokens: [{ name: 'ci', token_sha256: sha256Hex(secret), allowed_servers: ['*'] }] }), 'agent_tokens[0] ("ci") has the secret of the run-time token "narrow"'],
    ['the api key', (secret: string) => ({ api_key: secret }), 'the admin API key is the secret of the run-time token "narrow"'],
  ])('%s: the gateway refuses to start (credential_conflict), naming both', async (_, configured, expected) => {
    dir = new TempDir();
    const tools = dir.tools('alpha', [{ name: 'echo', echo: true }]);
    const dataDir = join(dir.path, 'data');
    const first = await startTestGateway(dir, { servers: [fixtureServer('alpha', tools)] });
    const created = await restClient(first.gateway.origin!).call('POST', '/api/v1/tokens', { body: { name: 'narrow', allowed_servers: ['alpha'] } });
    expect(created.status).toBe(201);
    const secret = created.body.token as string;
    await first.close();

    const value = { listen: '127.0.0.1:0', data_dir: dataDir, api_key: ADMIN_KEY, servers: [fixtureServer('alpha', tools)], ...configured(secret) };
    const resolved = validateAndResolve(value, join(dir.path, 'config.json'));
    if (!resolved.ok) throw new Error(resolved.error.message);
    const refused = await startGateway(resolved.config);
    expect(refused).toEqual({ ok: false, error: { code: 'credential_conflict', message: expect.stringContaining(expected) } });
    // The data directory was given back: the configuration without the clash starts.
    const again = await startTestGateway(dir, { servers: [fixtureServer('alpha', tools)] });
    await again.close();
  });
});

describe('creating a run-time token', () => {
  const CONFIG_SECRET = 'config-token-secret-0123456789';

  function endpoints(secrets: string[]) {
    dir = new TempDir();
    const opened = openStore(join(dir.path, 'data'));
    if (!opened.ok) throw new Error(opened.error.message);
    const store = opened.store;
    const tokens = createAgentTokenLookup([{ name: 'ci', sha256: sha256Hex(CONFIG_SECRET), allowed_servers: '*' }], store);
    const snapshot = { servers: new Map([['alpha', {}]]), profiles: new Map() };
    const [create] = tokenEndpoints({
      store,
      runtime: { current: () => ({ snapshot }) } as never,
      configTokens: [{ name: 'ci', allowed_servers: ['*'] }],
      credentials: { adminKey: secretDigest(ADMIN_KEY), tokens },
      newSecret: () => secrets.shift() ?? 'never-asked-for-0123456789',
    });
    const request = { params: {}, query: new URLSearchParams(), headers: {}, principal: OPERATOR, requestId: 'r', signal: new AbortController().signal, body: async () => ({ ok: true as const, value: { name: 'new', allowed_servers: ['alpha'] }, text: '' }), bodyText: async () => ({ ok: true as const, text: '{"name":"new","allowed_servers":["alpha"]}' }) } satisfies RestRequest;
    return { create: () => create!.handle(request), store };
  }

  it('never hands out the admin key or a configured token as the new secret', async () => {
    const { create, store } = endpoints([ADMIN_KEY, CONFIG_SECRET, 'a-fresh-secret-0123456789']);
    const reply = await create();
    expect([reply.status, (reply.body as { token: string }).token]).toEqual([201, 'a-fresh-secret-0123456789']);
    expect((await store.listAgentTokens()).map((token) => token.token_sha256)).toEqual([sha256Hex('a-fresh-secret-0123456789')]);
    store.close();
  });

  it('gives up with a 500 and stores nothing when every draw collides', async () => {
    const { create, store } = endpoints([ADMIN_KEY, CONFIG_SECRET, ADMIN_KEY]);
    expect((await create()).status).toBe(500);
    expect(await store.listAgentTokens()).toEqual([]);
    store.close();
  });
});
