// `mcpproxy auth login <server>` against a stdio gateway (the desktop setup): an SDK client holds
// `mcpproxy serve --stdio` (the built CLI) open; the gateway has no HTTP listener, so the command, a
// second child process with no port and no --url, finds it through the data directory and talks REST
// over its local socket. The command itself listens on the loopback callback; the test's "browser"
// goes through a real authorization server (consent automated) and lands there; the command hands the
// redirect to the gateway over the socket, exits 0, and the held client's call to the upstream succeeds.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type AuthorizationServer } from '../../server/test/oauth-world/authorization-server.js';
import { startProtectedUpstream, type ProtectedUpstream } from '../../server/test/oauth-world/protected-upstream.js';
import { readStoredLogin } from '../../server/test/oauth-world/stored-oauth.js';
import { loginWithBrowser } from './browser-login.js';
import { baseEnv, CLI_BIN, freePort, runCli, Scratch, type CliRun } from './cli-harness.js';

let scratch: Scratch;
let as: AuthorizationServer;
let upstream: ProtectedUpstream;
let callbackPort: number;
let config: string;
let client: Client;

const cli = (args: readonly string[]): Promise<CliRun> => runCli([...args, '-c', config], { cwd: scratch.dir });

async function serverState(name: string): Promise<string | undefined> {
  const run = await cli(['servers', 'list', '-o', 'json']);
  if (run.code !== 0) throw new Error(run.stderr);
  return (JSON.parse(run.stdout) as { servers: { name: string; state?: string }[] }).servers.find((server) => server.name === name)?.state;
}

beforeAll(async () => {
  scratch = new Scratch();
  as = await startAuthorizationServer();
  upstream = await startProtectedUpstream({ issuer: as.issuer });
  callbackPort = await freePort();
  // No api_key and no listen: the gateway generates a key into <data_dir>/api-key, where the CLI reads it.
  config = scratch.file(
    'desktop.json',
    JSON.stringify({
      data_dir: join(scratch.dir, 'data'),
      oauth_callback_port: callbackPort,
      reconnect_initial_delay_ms: 120_000,
      reconnect_max_delay_ms: 120_000,
      servers: [{ name: 'web', url: upstream.url, quarantined: false }],
    }),
  );
  client = new Client({ name: 'desktop-client', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'serve', '--stdio', '--config', config], env: baseEnv(scratch.dir), stderr: 'ignore' }));
  const deadline = Date.now() + 30_000;
  while ((await serverState('web')) !== 'pending_auth') {
    if (Date.now() > deadline) throw new Error('web never asked for a login');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  await client?.close();
  await upstream?.close();
  await as?.close();
  scratch?.remove();
});

describe('mcpproxy auth login against a stdio gateway', () => {
  it('logs in over the local socket with the command\'s own loopback callback; the held client\'s call then succeeds', async () => {
    const before = await cli(['tools', 'preflight', 'web:echo', '-o', 'json']);
    expect(before.code).toBe(11);
    expect(JSON.parse(before.stdout)).toMatchObject({ tools: [{ reason: 'oauth_required', remediation: expect.stringMatching(/: mcpproxy auth login web$/) }] });

    const login = await loginWithBrowser(['auth', 'login', 'web', '-c', config], { env: baseEnv(scratch.dir), callbackPort, cwd: scratch.dir });
    expect([login.run.code, login.run.stderr]).toEqual([0, '']);
    expect(login.browser.callbackStatus).toBe(200);
    expect(login.browser.callbackBody).toContain('Logged in to web');
    expect(login.run.stdout).toMatch(/Logged in: web is ready\./);
    expect(readStoredLogin(join(scratch.dir, 'data', 'mcpproxy.db'), 'web')).toMatchObject({ pending: false, refresh_token: expect.any(String) });

    expect((await cli(['tools', 'preflight', 'web:echo'])).code).toBe(0);
    const result = await client.callTool({ name: 'web:echo', arguments: { text: 'from the desktop client' } });
    expect(JSON.stringify(result)).toContain('from the desktop client');
    expect(JSON.parse((await cli(['auth', 'status', '-o', 'json'])).stdout)).toEqual({
      servers: [expect.objectContaining({ name: 'web', login: 'logged_in', method: 'oauth' })],
    });
  });
});
