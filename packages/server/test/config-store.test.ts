// The `store` setting: SQLite by default, unchanged; PostgreSQL with its URL given exactly one way,
// read from the environment when url_env names it, and never printed; the server README's scale-out
// configuration as written is valid.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { validateAndResolve, type LoadConfigResult } from '../src/config/gateway-config.js';
import { Scratch } from './fixture-process.js';

const scratches: Scratch[] = [];
const variables: string[] = [];
afterEach(() => {
  for (const s of scratches.splice(0)) s.remove();
  for (const name of variables.splice(0)) delete process.env[name];
});

function resolve(config: Record<string, unknown>): LoadConfigResult {
  const s = new Scratch();
  scratches.push(s);
  return validateAndResolve({ data_dir: s.file('data'), servers: [], ...config }, s.file('mcpproxy.json'));
}

function refusal(config: Record<string, unknown>): { path: string; message: string } {
  const result = resolve(config);
  if (result.ok) throw new Error('expected the configuration to be refused');
  return { path: result.error.path, message: result.error.message };
}

function setVariable(name: string, value: string): void {
  variables.push(name);
  process.env[name] = value;
}

const SECRET_URL = 'postgresql://gw:s3cret-pass@db.example.com:5432/mcpproxy?sslmode=require';

describe('store', () => {
  it('is the SQLite file when absent or kind sqlite', () => {
    for (const config of [{}, { store: { kind: 'sqlite' } }]) {
      const result = resolve(config);
      expect(result.ok && result.config.store).toEqual({ kind: 'sqlite' });
    }
  });

  it('reads a postgres URL from the file, or from the environment variable url_env names, with the pool default', () => {
    const inFile = resolve({ store: { kind: 'postgres', url: SECRET_URL } });
    expect(inFile.ok && inFile.config.store).toEqual({ kind: 'postgres', url: SECRET_URL, url_source: '/store/url', pool_size: 10 });
    setVariable('MCPPROXY_TEST_STORE_URL', SECRET_URL);
    const fromEnv = resolve({ store: { kind: 'postgres', url_env: 'MCPPROXY_TEST_STORE_URL', pool_size: 3 } });
    expect(fromEnv.ok && fromEnv.config.store).toEqual({
      kind: 'postgres',
      url: SECRET_URL,
      url_source: 'environment variable MCPPROXY_TEST_STORE_URL',
      url_env: 'MCPPROXY_TEST_STORE_URL',
      pool_size: 3,
    });
  });

  it('refuses a url_env whose variable is missing or holds no postgres URL, naming the variable and never its value', () => {
    expect(refusal({ store: { kind: 'postgres', url_env: 'MCPPROXY_TEST_UNSET_URL' } })).toEqual({
      path: '/store/url_env',
      message: expect.stringContaining('/store/url_env: environment variable MCPPROXY_TEST_UNSET_URL (the PostgreSQL connection URL) is not set'),
    });
    setVariable('MCPPROXY_TEST_BAD_URL', 'mysql://gw:s3cret-pass@db/x');
    const bad = refusal({ store: { kind: 'postgres', url_env: 'MCPPROXY_TEST_BAD_URL' } });
    expect(bad.message).toContain('environment variable MCPPROXY_TEST_BAD_URL does not hold a postgres:// or postgresql:// URL');
    expect(bad.message).not.toContain('s3cret');
  });

  it('takes a postgres URL exactly one way, and no PostgreSQL keys with sqlite', () => {
    expect(refusal({ store: { kind: 'postgres' } })).toEqual({ path: '/store', message: expect.stringContaining('exactly one of url (the connection URL) and url_env (the environment variable holding it), neither is given') });
    expect(refusal({ store: { kind: 'postgres', url: SECRET_URL, url_env: 'X' } }).message).toContain('both are given');
    expect(refusal({ store: { kind: 'sqlite', url: SECRET_URL } })).toEqual({ path: '/store/url', message: expect.stringContaining('url applies to a postgres store only (store.kind is "sqlite")') });
    expect(refusal({ store: { kind: 'sqlite', pool_size: 4 } }).path).toBe('/store/pool_size');
    expect(refusal({ store: { kind: 'postgres', url: SECRET_URL }, store_wal_limit_bytes: 2_000_000 })).toEqual({
      path: '/store_wal_limit_bytes',
      message: expect.stringContaining('applies to the SQLite store only'),
    });
  });

  it('refuses an unknown kind, a URL of another scheme and a pool outside 1..100 where they are', () => {
    expect(refusal({ store: { kind: 'mysql' } }).path).toBe('/store/kind');
    expect(refusal({ store: { kind: 'postgres', url: 'mysql://db/x' } }).path).toBe('/store/url');
    expect(refusal({ store: { kind: 'postgres', url: SECRET_URL, pool_size: 0 } }).path).toBe('/store/pool_size');
    expect(refusal({ store: { kind: 'postgres', url: SECRET_URL, extra: true } }).message).toContain('/store/extra: unknown key');
  });

  it('accepts the server README\u2019s scale-out configuration as written', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Scale out'));
    const block = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
    if (block === undefined) throw new Error('the Scale out section has no JSON block');
    setVariable('DATABASE_URL', SECRET_URL);
    const result = resolve(JSON.parse(block) as Record<string, unknown>);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.config.store).toMatchObject({ kind: 'postgres', url: SECRET_URL, url_env: 'DATABASE_URL' });
    expect(result.config.require_mcp_auth).toBe(true);
  });
});
