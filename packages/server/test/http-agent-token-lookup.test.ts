// Agent tokens from the config (secret or its SHA-256) and from the real SQLite store (created at
// run time, revocable), all matched by the SHA-256 of the presented secret.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedServersOf, createAgentTokenLookup, sha256Hex } from '../src/http/agent-token-lookup.js';
import { openStore, type Store } from '../src/store/store.js';

describe('agent token lookup', () => {
  let dir: string;
  let store: Store;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcpproxy-c2-tokens-'));
    const opened = openStore(dir);
    if (!opened.ok) throw new Error(opened.error.message);
    store = opened.store;
  });
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds config tokens by secret and run-time tokens in the store, never revoked ones', async () => {
    const created = await store.createAgentToken({ name: 'runtime', token_sha256: sha256Hex('run-time-secret-0001'), allowed_servers: ['alpha'], profile: 'dev' });
    expect(created.ok).toBe(true);
    const lookup = createAgentTokenLookup(
      [
        { name: 'plain', sha256: sha256Hex('config-secret-00001'), allowed_servers: allowedServersOf(['*']) },
        { name: 'hashed', sha256: sha256Hex('config-secret-00002').toUpperCase(), allowed_servers: ['beta'] },
      ],
      store,
    );
    expect(await lookup.find('config-secret-00001')).toEqual({ name: 'plain', allowed_servers: '*' });
    expect(await lookup.find('config-secret-00002')).toEqual({ name: 'hashed', allowed_servers: ['beta'] });
    expect(await lookup.find('run-time-secret-0001')).toEqual({ name: 'runtime', allowed_servers: ['alpha'], profile: 'dev' });
    expect(await store.revokeAgentToken('runtime')).toBe(true);
    expect(await lookup.find('run-time-secret-0001')).toBeUndefined();
  });

  it('finds nothing for any other secret', async () => {
    const lookup = createAgentTokenLookup([{ name: 'plain', sha256: sha256Hex('config-secret-00001'), allowed_servers: '*' }], store);
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 64 }), async (secret) => {
        fc.pre(secret !== 'config-secret-00001');
        expect(await lookup.find(secret)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});
