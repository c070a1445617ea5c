import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { GATEWAY_DEFAULTS, SERVER_DEFAULTS, STORE_DEFAULTS } from '../src/config/config-defaults.js';
import { loadConfig } from '../src/config/gateway-config.js';
import type { ConfigError, ResolvedConfig } from '../src/config/gateway-config.js';
import { findJsonSyntaxError } from '../src/config/json-syntax-error.js';
import { Scratch } from './fixture-process.js';

const schema = JSON.parse(readFileSync(new URL('../../../spec/config.schema.json', import.meta.url), 'utf8')) as {
  $defs: Record<string, { properties: Record<string, { default?: unknown }> }>;
};

const scratches: Scratch[] = [];
afterEach(() => {
  for (const s of scratches.splice(0)) s.remove();
});

function scratch(): Scratch {
  const s = new Scratch();
  scratches.push(s);
  return s;
}

/** Writes a config file (object or raw text) with a data dir inside the scratch dir. */
function configFile(s: Scratch, content: unknown): string {
  const path = s.file('mcpproxy.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

async function loadOk(path: string): Promise<ResolvedConfig> {
  const result = await loadConfig(path);
  if (!result.ok) throw new Error(result.error.message);
  return result.config;
}

async function loadError(path: string): Promise<ConfigError> {
  const result = await loadConfig(path);
  if (result.ok) throw new Error('expected the config to be refused');
  return result.error;
}

const sha256 = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

const stdioServer = { name: 'local', command: 'node', args: ['server.js'] };

describe('defaults', () => {
  it('are the default keywords of spec/config.schema.json', () => {
    const fromSchema = (def: string) =>
      Object.fromEntries(
        Object.entries(schema.$defs[def]!.properties)
          .filter(([, property]) => 'default' in property)
          .map(([key, property]) => [key, property.default]),
      );
    expect(fromSchema('GatewayConfig')).toEqual(GATEWAY_DEFAULTS);
    expect(fromSchema('ServerConfig')).toEqual(SERVER_DEFAULTS);
    expect(fromSchema('StoreConfig')).toEqual(STORE_DEFAULTS);
  });

  it('make a file with only servers valid, and are applied', async () => {
    const s = scratch();
    const config = await loadOk(configFile(s, { data_dir: 'state', servers: [stdioServer, { name: 'remote', url: 'http://127.0.0.1:9000/mcp' }] }));
    expect(config).toMatchObject({
      listen: '127.0.0.1:8080',
      tool_quarantine: true,
      require_mcp_auth: false,
      page_size: 100,
      activity_max_records: 10_000,
      activity_max_age_days: 30,
      agent_tokens: [],
      profiles: [],
      source: s.file('mcpproxy.json'),
    });
    // a relative data_dir is taken from the config file's directory
    expect(config.data_dir).toBe(s.file('state'));
    expect(config.servers[0]).toEqual({ ...stdioServer, env: {}, enabled: true, enabled_tools: [], disabled_tools: [], auto_approve_tool_changes: false, saturation_error_codes: [] });
    expect(config.servers[1]).toEqual({
      name: 'remote',
      url: 'http://127.0.0.1:9000/mcp',
      headers: {},
      enabled: true,
      enabled_tools: [],
      disabled_tools: [],
      auto_approve_tool_changes: false,
      saturation_error_codes: [],
    });
  });

  it('expand ~ in data_dir and cwd', async () => {
    const s = scratch();
    const config = await loadOk(configFile(s, { data_dir: s.file('d'), servers: [{ ...stdioServer, cwd: '~/work' }] }));
    expect(config.servers[0]?.cwd).toBe(join(homedir(), 'work'));
    const home = await loadConfig(configFile(s, { data_dir: '~/.mcpproxy-test-not-created', api_key: 'k'.repeat(20), servers: [] }));
    expect(home.ok && home.config.data_dir).toBe(join(homedir(), '.mcpproxy-test-not-created'));
  });
});

describe('the API key', () => {
  it('is generated once into <data_dir>/api-key with mode 0600, then reused', async () => {
    const s = scratch();
    const path = configFile(s, { data_dir: s.file('data'), servers: [] });
    const first = await loadOk(path);
    expect(first.api_key_generated).toBe(true);
    expect(first.api_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.api_key_file).toBe(s.file('data/api-key'));
    expect(statSync(s.file('data/api-key')).mode & 0o777).toBe(0o600);
    const second = await loadOk(path);
    expect(second.api_key_generated).toBe(false);
    expect(second.api_key).toBe(first.api_key);
  });

  it('comes from the config when given there (no file written)', async () => {
    const s = scratch();
    const config = await loadOk(configFile(s, { data_dir: s.file('data'), api_key: 'a-configured-admin-key', servers: [] }));
    expect(config).toMatchObject({ api_key: 'a-configured-admin-key', api_key_generated: false });
    expect(config.api_key_file).toBeUndefined();
    expect(() => statSync(s.file('data/api-key'))).toThrow();
  });
});

describe('errors name the file, the place and what is wrong', () => {
  it('an unreadable file', async () => {
    const s = scratch();
    const error = await loadError(s.file('missing.json'));
    expect(error).toMatchObject({ code: 'config_unreadable', file: s.file('missing.json'), path: '' });
    expect(error.message).toContain(s.file('missing.json'));
  });

  it('a JSON syntax error, with line and column', async () => {
    const s = scratch();
    const path = configFile(s, '{\n  "servers": [\n    { "name": "a", }\n  ]\n}\n');
    const error = await loadError(path);
    expect(error.code).toBe('config_invalid_json');
    expect(error.message).toBe(`${path}:3:20: not valid JSON: unexpected '}': a property name in double quotes was expected`);
  });

  it.each([
    [{ servers: [{ name: 'a:b', command: 'x' }] }, '/servers/0/name', 'must match pattern'],
    [{ servers: [{ name: 'a', command: 'x', colour: 'red' }] }, '/servers/0/colour', 'unknown key'],
    [{}, '/servers', "must have required property 'servers'"],
    [{ servers: [], page_size: 0 }, '/page_size', 'must be >= 1'],
    [{ servers: [{ name: 'a' }] }, '/servers/0', 'a server needs either command (stdio) or url (Streamable HTTP)'],
    [{ servers: [{ name: 'a', command: 'x', url: 'http://h/mcp' }] }, '/servers/0', 'not both'],
    [{ servers: [{ name: 'a', url: 'http://h/mcp', args: [] }] }, '/servers/0', 'an HTTP server (url) cannot have command, args, env or cwd'],
    [{ servers: [{ name: 'a', command: 'x', headers: {} }] }, '/servers/0', 'a stdio server (command) cannot have url or headers'],
    [{ servers: [{ name: 'a', url: 'ftp://h' }] }, '/servers/0/url', 'must match pattern'],
  ])('a schema violation: %j', async (content, pointer, what) => {
    const s = scratch();
    const path = configFile(s, content);
    const error = await loadError(path);
    expect(error.code).toBe('config_invalid');
    expect(error.path).toBe(pointer);
    expect(error.message).toContain(`${path}: ${pointer}: `);
    expect(error.message).toContain(what);
  });

  const token = (extra: Record<string, unknown>) => ({ name: 'ci', token: 'a-secret-of-enough-length', allowed_servers: ['local'], ...extra });
  it.each([
    [{ servers: [stdioServer, stdioServer] }, '/servers/1/name', 'server name "local" is used twice'],
    [{ servers: [stdioServer], profiles: [{ name: 'dev', servers: ['ghost'] }] }, '/profiles/0/servers/0', 'profile "dev" names unknown server "ghost"'],
    [{ servers: [stdioServer], agent_tokens: [token({ profile: 'nope' })] }, '/agent_tokens/0/profile', 'token "ci" names unknown profile "nope"'],
    [{ servers: [stdioServer], agent_tokens: [token({ token_sha256: 'a'.repeat(64) })] }, '/agent_tokens/0', 'both are given'],
    [{ servers: [stdioServer], agent_tokens: [{ name: 'ci', allowed_servers: ['*'] }] }, '/agent_tokens/0', 'neither is given'],
    [{ servers: [stdioServer], agent_tokens: [token({ allowed_servers: ['ghost'] })] }, '/agent_tokens/0/allowed_servers/0', 'unknown server "ghost"'],
    [{ servers: [stdioServer], agent_tokens: [token({ allowed_servers: ['local', '*'] })] }, '/agent_tokens/0/allowed_servers/1', 'must be the only entry'],
    [{ servers: [stdioServer], agent_tokens: [token({}), token({})] }, '/agent_tokens/1/name', 'token name "ci" is used twice'],
    [{ servers: [{ ...stdioServer, enabled_tools: ['t'], disabled_tools: ['t'] }] }, '/servers/0/enabled_tools/0', 'both in enabled_tools and in disabled_tools'],
    [{ servers: [stdioServer], agent_tokens: [token({}), token({ name: 'ci2', allowed_servers: ['*'] })] }, '/agent_tokens/1/token', 'agent_tokens[1].token duplicates agent_tokens[0].token'],
    [
      { servers: [stdioServer], agent_tokens: [token({}), { name: 'all', token_sha256: sha256('a-secret-of-enough-length'), allowed_servers: ['*'] }] },
      '/agent_tokens/1/token_sha256',
      'agent_tokens[1].token_sha256 duplicates agent_tokens[0].token',
    ],
    [{ servers: [stdioServer], api_key: 'a-secret-of-enough-length', agent_tokens: [token({})] }, '/agent_tokens/0/token', 'agent_tokens[0].token is the admin API key (api_key)'],
    [{ servers: [{ name: 'a', url: 'http://' }] }, '/servers/0/url', 'servers[0].url "http://" is not a URL'],
    [{ servers: [stdioServer, { name: 'a', url: 'http://exa mple.com:99999/x' }] }, '/servers/1/url', 'servers[1].url "http://exa mple.com:99999/x" is not a URL'],
    [{ servers: [{ name: 'a', url: 'http://h.example:99999/mcp' }] }, '/servers/0/url', 'is not a URL'],
    [{ servers: [{ name: 'a', url: 'https://h.example:0/mcp' }] }, '/servers/0/url', 'servers[0].url "https://h.example:0/mcp" has port 0'],
  ])('a cross-check: %j', async (content, pointer, what) => {
    const s = scratch();
    const path = configFile(s, { data_dir: s.file('data'), ...content });
    const error = await loadError(path);
    expect(error.code).toBe('config_invalid');
    expect(error.path).toBe(pointer);
    expect(error.message).toContain(`${path}: ${pointer}: `);
    expect(error.message).toContain(what);
  });

  it('an agent token equal to the API key kept in the data directory names that file', async () => {
    const s = scratch();
    const dataDir = s.file('data');
    const first = await loadOk(configFile(s, { data_dir: dataDir, servers: [stdioServer] }));
    const error = await loadError(configFile(s, { data_dir: dataDir, servers: [stdioServer], agent_tokens: [token({ token: first.api_key })] }));
    expect(error).toMatchObject({ code: 'config_invalid', path: '/agent_tokens/0/token' });
    expect(error.message).toContain(`agent_tokens[0].token is the admin API key (${join(dataDir, 'api-key')})`);
  });

  it('a key given twice, at any depth, with its line and column (JSON.parse would keep the last)', async () => {
    const s = scratch();
    const top = configFile(s, '{\n  "servers": [],\n  "servers": [{ "name": "a", "command": "x" }]\n}\n');
    expect(await loadError(top)).toEqual({
      code: 'config_invalid',
      file: top,
      path: '/servers',
      message: `${top}:3:3: /servers: duplicate key "servers" (first at line 2, column 3): JSON would keep only the last one`,
    });
    const deep = configFile(s, '{ "servers": [\n  { "name": "a", "command": "x", "env": { "A": "1", "\\u0041": "2" } } ] }');
    expect(await loadError(deep)).toMatchObject({ path: '/servers/0/env/A', message: expect.stringContaining(`${deep}:2:53: /servers/0/env/A: duplicate key "A" (first at line 2, column 43)`) });
  });

  it('a valid token and profile setup passes', async () => {
    const s = scratch();
    const config = await loadOk(
      configFile(s, {
        data_dir: s.file('data'),
        servers: [stdioServer],
        profiles: [{ name: 'dev', servers: ['local'] }],
        agent_tokens: [token({ profile: 'dev' }), { name: 'all', token_sha256: 'b'.repeat(64), allowed_servers: ['*'] }],
      }),
    );
    expect(config.agent_tokens.map((t) => t.name)).toEqual(['ci', 'all']);
  });
});

describe('findJsonSyntaxError', () => {
  it('finds nothing in valid JSON, whatever the whitespace', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, '\t'), (value, indent) => findJsonSyntaxError(JSON.stringify(value, null, indent)) === undefined),
    );
  });

  it('finds an error exactly when JSON.parse fails', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', 'x', '\n', '01', '-', '\\'), (value, at, junk) => {
        const text = JSON.stringify(value, null, 1);
        const cut = at % (text.length + 1);
        const broken = text.slice(0, cut) + junk + text.slice(cut);
        let parses = true;
        try {
          JSON.parse(broken);
        } catch {
          parses = false;
        }
        const found = findJsonSyntaxError(broken);
        expect(found === undefined).toBe(parses);
        if (found !== undefined) expect(found.offset).toBeLessThanOrEqual(broken.length);
      }),
    );
  });

  it('with duplicateKeys, finds a key given twice in one object exactly when there is one', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => findJsonSyntaxError(JSON.stringify(value), { duplicateKeys: true }) === undefined),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.nat(), fc.jsonValue(), (object, pick, again) => {
        const keys = Object.keys(object);
        const key = keys[pick % keys.length]!;
        const text = `{"outer":[${JSON.stringify(object).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(again) ?? 'null'}}]}`;
        const found = findJsonSyntaxError(text, { duplicateKeys: true });
        expect(found?.pointer).toBe(`/outer/0/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
      }),
    );
  });

  it('counts lines and columns from 1', () => {
    expect(findJsonSyntaxError('[1,\n 2,\n ]')).toMatchObject({ line: 3, column: 2, offset: 9 });
    expect(findJsonSyntaxError('')).toMatchObject({ line: 1, column: 1, message: 'unexpected end of input: a value was expected' });
    expect(findJsonSyntaxError('{"a": "x\n"}')).toMatchObject({ line: 1, column: 9 });
  });
});
