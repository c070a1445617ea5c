// The operator commands against a running gateway (the built binary over REST): tools, servers,
// activity, tokens and auth login, each in every output format, plus connection discovery.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ADMIN_KEY, fixtureServer, freePort, isOneLineError, runCli, Scratch, serveGateway, waitForServer, type ServedGateway } from './cli-harness.js';

let scratch: Scratch;
let gw: ServedGateway;
const cli = (args: readonly string[], options: { env?: Record<string, string>; input?: string } = {}) => runCli([...args, ...gw.flags], options);
const json = <T>(text: string) => JSON.parse(text) as T;

beforeAll(async () => {
  scratch = new Scratch();
  gw = await serveGateway(scratch, {
    tool_quarantine: true,
    servers: [
      fixtureServer(scratch, 'alpha', [{ name: 'echo', echo: true }, { name: 'write' }]),
      fixtureServer(scratch, 'quar', [{ name: 'echo' }], { quarantined: true }),
    ],
    agent_tokens: [{ name: 'from-config', token: 'config-token-0123456789', allowed_servers: ['alpha'] }],
  });
  await waitForServer(gw, 'alpha', ['ready']);
  await waitForServer(gw, 'quar', ['ready']);
});
afterAll(async () => {
  await gw?.stop();
  scratch?.remove();
});

describe('tools', () => {
  it('tools list: table with hashes at the operator tier, json, yaml, --server', async () => {
    const table = await cli(['tools', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^ID +APPROVAL +SERVED +FLAGS +HASH\nalpha:echo +approved +yes +- +sha256\/v1:[0-9a-f]{64}\n/);
    const doc = json<{ tools: { id: string }[] }>((await cli(['tools', 'list', '--server', 'quar', '-o', 'json'])).stdout);
    expect(doc.tools.map((t) => t.id)).toEqual(['quar:echo']);
    expect(parseYaml((await cli(['tools', 'list', '--server', 'quar', '-o', 'yaml'])).stdout)).toEqual(doc);
  });

  it('tools list with an agent token: no hashes', async () => {
    const run = await runCli(['tools', 'list', '-o', 'json', '--url', gw.origin, '--token', 'config-token-0123456789']);
    expect(run.stdout).not.toContain('sha256/');
  });

  it('tools disable / enable flip tool_blocked_by_user', async () => {
    const disabled = await cli(['tools', 'disable', 'alpha:write']);
    expect([disabled.code, disabled.stdout.split('\n')[0]]).toEqual([0, 'Disabled alpha:write.']);
    expect((await cli(['tools', 'preflight', 'alpha:write'])).stdout).toContain('tool_blocked_by_user');
    const enabled = await cli(['tools', 'enable', 'alpha:write', '-o', 'json']);
    expect(json<{ tools: { user_disabled: boolean }[] }>(enabled.stdout).tools[0]!.user_disabled).toBe(false);
    expect((await cli(['tools', 'preflight', 'alpha:write'])).code).toBe(0);
    const unknown = await cli(['tools', 'disable', 'ghost:x']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('(not_found, HTTP 404)');
  });

  it('tools approve by id and --server S --all', async () => {
    const byId = await cli(['tools', 'approve', 'alpha:echo', '-o', 'json']);
    expect(json<{ tools: { id: string; approval: string }[] }>(byId.stdout).tools).toMatchObject([{ id: 'alpha:echo', approval: 'approved' }]);
    const all = await cli(['tools', 'approve', '--server', 'alpha', '--all']);
    expect([all.code, all.stdout]).toEqual([0, 'Nothing to approve.\n']);
  });
});

describe('servers', () => {
  it('servers list in three formats', async () => {
    const table = await cli(['servers', 'list']);
    expect(table.stdout).toMatch(/^NAME +STATE +ENABLED +QUARANTINED +SERVED\/LISTED +LAST_ERROR\nalpha +ready +yes +no +2\/2 +-\n/);
    const doc = json<{ servers: { name: string; quarantined: boolean }[] }>((await cli(['servers', 'list', '-o', 'json'])).stdout);
    expect(doc.servers.map((s) => [s.name, s.quarantined])).toEqual([['alpha', false], ['quar', true]]);
    expect(parseYaml((await cli(['servers', 'list', '-o', 'yaml'])).stdout)).toMatchObject({ servers: [{ name: 'alpha' }, { name: 'quar' }] });
  });

  it('quarantine, unquarantine, disable, enable, restart: each changes the preflight verdict', async () => {
    const verdictOf = async () => (await cli(['tools', 'preflight', 'alpha:echo'])).code;
    expect((await cli(['servers', 'quarantine', 'alpha'])).code).toBe(0);
    expect(await verdictOf()).toBe(11);
    expect((await cli(['servers', 'unquarantine', 'alpha'])).stdout).toMatch(/^Released from quarantine: alpha\./);
    expect(await verdictOf()).toBe(0);
    expect(json<{ enabled: boolean }>((await cli(['servers', 'disable', 'alpha', '-o', 'json'])).stdout).enabled).toBe(false);
    expect(await verdictOf()).toBe(11);
    const restartDisabled = await cli(['servers', 'restart', 'alpha']);
    expect([restartDisabled.code, isOneLineError(restartDisabled.stderr)]).toEqual([1, true]);
    expect(restartDisabled.stderr).toContain('(conflict, HTTP 409)');
    expect((await cli(['servers', 'enable', 'alpha'])).code).toBe(0);
    await waitForServer(gw, 'alpha', ['ready']);
    expect((await cli(['servers', 'restart', 'alpha'])).stdout).toMatch(/^Restarting alpha\./);
    await waitForServer(gw, 'alpha', ['ready']);
    expect(await verdictOf()).toBe(0);
  });
});

describe('activity', () => {
  it('activity list: --type, --request-id, --limit, three formats', async () => {
    const checked = json<{ request_id: string }>((await cli(['tools', 'preflight', 'alpha:echo', 'quar:echo', '-o', 'json'])).stdout);
    const table = await cli(['activity', 'list', '--request-id', checked.request_id]);
    expect(table.stdout).toMatch(new RegExp(`^TIME +TYPE +SURFACE +STATUS +REQUEST_ID +SUMMARY\\n\\S+ +preflight +cli +blocked +${checked.request_id} +blocked, 2 ids: server_quarantined×1\\n$`));
    const limited = json<{ records: unknown[]; next_cursor?: string }>((await cli(['activity', 'list', '--type', 'preflight', '--limit', '1', '-o', 'json'])).stdout);
    expect(limited.records).toHaveLength(1);
    expect(limited.next_cursor).toBeDefined();
    expect(parseYaml((await cli(['activity', 'list', '--request-id', checked.request_id, '-o', 'yaml'])).stdout)).toMatchObject({ records: [{ request_id: checked.request_id }] });
    expect((await cli(['activity', 'list', '--request-id', 'no-such-request'])).stdout).toBe('No activity records.\n');
  });

  it('an agent token cannot read the activity log: 403 in one line', async () => {
    const run = await runCli(['activity', 'list', '--url', gw.origin, '--token', 'config-token-0123456789']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('this needs the admin API key');
  });
});

describe('tokens', () => {
  it('create prints the secret once; the secret works; list; revoke', async () => {
    const created = await cli(['tokens', 'create', '--name', 'ci', '--servers', 'alpha, quar']);
    expect(created.code).toBe(0);
    const secret = /\n {2}(mcpp_\S+)\n/.exec(created.stdout)?.[1];
    expect(secret).toBeDefined();
    const asAgent = await runCli(['tools', 'preflight', 'alpha:echo', '--url', gw.origin], { env: { MCPPROXY_TOKEN: secret! } });
    expect(asAgent.code).toBe(0);
    const listed = json<{ tokens: { name: string; source: string; revoked: boolean }[] }>((await cli(['tokens', 'list', '-o', 'json'])).stdout);
    expect(listed.tokens.map((t) => [t.name, t.source, t.revoked])).toEqual([['from-config', 'config', false], ['ci', 'store', false]]);
    expect((await cli(['tokens', 'list'])).stdout).not.toContain(secret!);
    expect((await cli(['tokens', 'revoke', 'ci'])).stdout).toMatch(/^Revoked ci\./);
    const refused = await runCli(['tools', 'preflight', 'alpha:echo', '--url', gw.origin], { env: { MCPPROXY_TOKEN: secret! } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the gateway refused the credentials');
    expect(refused.stderr).toContain('MCPPROXY_TOKEN');
  });

  it('create -o json has the secret field; a config token cannot be revoked', async () => {
    const created = json<{ token: string; name: string; profile?: string }>((await cli(['tokens', 'create', '--name', 'ci2', '--servers', '*', '-o', 'json'])).stdout);
    expect(created.token).toMatch(/^mcpp_/);
    const revoke = await cli(['tokens', 'revoke', 'from-config']);
    expect([revoke.code, isOneLineError(revoke.stderr)]).toEqual([1, true]);
  });
});

describe('where the CLI connects', () => {
  it('the config file: its listen address and the API key the gateway stored in its data directory', async () => {
    const port = await freePort();
    const dataDir = join(scratch.dir, 'discover-data');
    const served = await serveGateway(scratch, { listen: `127.0.0.1:${port}`, data_dir: dataDir, api_key: undefined, servers: [] }, 'discover');
    try {
      expect(served.output()).toContain('Generated an admin API key');
      const run = await runCli(['servers', 'list', '-o', 'json', '--config', served.configFile]);
      expect([run.code, run.stdout]).toEqual([0, '{\n  "servers": []\n}\n']);
      const viaEnv = await runCli(['servers', 'list'], { env: { MCPPROXY_URL: `http://127.0.0.1:${port}/mcp`, MCPPROXY_DATA_DIR: dataDir } });
      expect(viaEnv.code).toBe(0);
      const noKey = await runCli(['servers', 'list', '--url', served.origin], { env: { MCPPROXY_DATA_DIR: join(scratch.dir, 'empty') } });
      expect(noKey.code).toBe(1);
      expect(noKey.stderr).toContain('no API key in');
      expect(noKey.stderr).toContain('pass --api-key');
    } finally {
      await served.stop();
    }
  });

  it('MCPPROXY_API_KEY from the environment; a flag beats it', async () => {
    expect((await runCli(['servers', 'list', '--url', gw.origin], { env: { MCPPROXY_API_KEY: ADMIN_KEY } })).code).toBe(0);
    const wrong = await runCli(['servers', 'list', '--url', gw.origin, '--api-key', 'wrong-key'], { env: { MCPPROXY_API_KEY: ADMIN_KEY } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('check the credential from --api-key');
  });
});
