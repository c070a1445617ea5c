// Which credential the CLI sends where: keys found on this machine (the stored key, a config's
// api_key) go only to a gateway on this machine or at the configured address, never to another --url.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConnection } from '../src/connection/connection-settings.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mcpproxy-cli-keys-'));
writeFileSync(join(dataDir, 'api-key'), 'stored-admin-key-0123456789\n');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const connect = (values: Record<string, string>, env: Record<string, string> = {}) => resolveConnection({ values, env: { MCPPROXY_DATA_DIR: dataDir, ...env } });

describe('implicit credentials', () => {
  it('the stored key goes to the default address and to any gateway on this machine', () => {
    for (const values of [{}, { url: 'http://127.0.0.1:9999' }, { url: 'http://localhost:8080/mcp' }, { url: 'http://[::1]:8080' }, { url: 'http://127.1.2.3:80' }]) {
      expect(connect(values).credential, JSON.stringify(values)).toMatchObject({ kind: 'api-key', secret: 'stored-admin-key-0123456789' });
    }
    expect(connect({}, { MCPPROXY_URL: 'http://127.0.0.1:8181' }).credential.kind).toBe('api-key');
  });

  it('never to another host named by --url or MCPPROXY_URL; explicit credentials still go', () => {
    for (const remote of ['http://gateway.example:8080', 'https://10.0.0.5', 'http://127.0.0.1.example.com']) {
      expect(connect({ url: remote }).credential, remote).toEqual({ kind: 'none', why: expect.stringContaining('is not on this machine') });
      expect(connect({}, { MCPPROXY_URL: remote }).credential.kind, remote).toBe('none');
      expect(connect({ url: remote, 'api-key': 'given' }).credential).toMatchObject({ kind: 'api-key', secret: 'given' });
      expect(connect({ url: remote }, { MCPPROXY_TOKEN: 'agent' }).credential).toMatchObject({ kind: 'token', secret: 'agent' });
    }
  });
});
