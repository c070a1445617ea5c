// A new user's path through the built CLI, against a real authorization server (oidc-provider, consent
// automated) and an upstream that accepts only its tokens: the upstream needs OAuth, so preflight says
// oauth_required with remediation `mcpproxy auth login web`; that command (a child process) prints the
// authorization URL, the test's "browser" follows it and lands on the command's loopback callback, the
// gateway stores the tokens and reconnects, the command exits 0, preflight is ready and a call goes
// through. Then: no token ever shows up in the gateway's output, the CLI's, REST answers or the
// activity log; logout sends the server back to oauth_required.
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type AuthorizationServer } from '../../server/test/oauth-world/authorization-server.js';
import { startProtectedUpstream, type ProtectedUpstream } from '../../server/test/oauth-world/protected-upstream.js';
import { activityLogText, readStoredLogin } from '../../server/test/oauth-world/stored-oauth.js';
import { loginWithBrowser as browserLogin, type BrowserLogin } from './browser-login.js';
import { ADMIN_KEY, baseEnv, freePort, isOneLineError, runCli, Scratch, serveGateway, waitForServer, type CliRun, type ServedGateway } from './cli-harness.js';

let scratch: Scratch;
let as: AuthorizationServer;
let upstream: ProtectedUpstream;
let gw: ServedGateway;
let callbackPort: number;
/** Everything the CLI printed, and every REST answer the test read, for the token search. */
const seen: string[] = [];

const cli = async (args: readonly string[]): Promise<CliRun> => {
  const run = await runCli([...args, ...gw.flags]);
  seen.push(run.stdout, run.stderr);
  return run;
};

beforeAll(async () => {
  scratch = new Scratch();
  as = await startAuthorizationServer();
  upstream = await startProtectedUpstream({ issuer: as.issuer });
  callbackPort = await freePort();
  gw = await serveGateway(scratch, {
    oauth_callback_port: callbackPort,
    // Keep the background retries of the 401 upstream out of the test's window.
    reconnect_initial_delay_ms: 120_000,
    reconnect_max_delay_ms: 120_000,
    servers: [{ name: 'web', url: upstream.url, quarantined: false }],
  });
  await waitForServer(gw, 'web', ['pending_auth']);
});
afterAll(async () => {
  await gw?.stop();
  await upstream?.close();
  await as?.close();
  scratch?.remove();
});

describe('mcpproxy auth login <server> (OAuth)', () => {
  it('a new user: oauth_required names the command; the command logs in; preflight ready; a call succeeds', async () => {
    const before = await cli(['tools', 'preflight', 'web:echo', '-o', 'json']);
    expect(before.code).toBe(11);
    const verdict = (JSON.parse(before.stdout) as { tools: { reason: string; action: string; remediation: string }[] }).tools[0]!;
    expect([verdict.reason, verdict.action]).toEqual(['oauth_required', 'login']);
    expect(verdict.remediation).toMatch(/: mcpproxy auth login web$/);

    const login = await loginWithBrowser(verdict.remediation.replace(/^.*: mcpproxy /, '').split(' '));
    expect(login.browser.callbackStatus).toBe(200);
    expect(login.browser.callbackBody).toContain('Logged in to web');
    expect([login.run.code, login.run.stderr]).toEqual([0, '']);
    expect(login.run.stdout).toContain(`http://127.0.0.1:${callbackPort}/oauth/callback`);
    expect(login.run.stdout).toMatch(/Logged in: web is ready\.\nNAME +STATE/);

    expect((await cli(['tools', 'preflight', 'web:echo'])).code).toBe(0);
    expect(await callEcho('through the gateway')).toContain('through the gateway');

    const status = await cli(['auth', 'status', '-o', 'json']);
    expect(JSON.parse(status.stdout)).toEqual({
      servers: [expect.objectContaining({ name: 'web', login: 'logged_in', method: 'oauth', client: 'registered', refreshable: true, scopes: expect.arrayContaining(['mcp:tools']) })],
    });
    expect((await cli(['auth', 'status'])).stdout).toMatch(/^NAME +LOGIN +METHOD/);
  });

  it('a token the upstream stops accepting is refreshed on its 401, and the call still succeeds', async () => {
    const refreshes = as.grants.refresh_token;
    upstream.refuseTokensSeen();
    expect(await callEcho('after a refresh')).toContain('after a refresh');
    expect(as.grants.refresh_token).toBe(refreshes + 1);
  });

  it('no access or refresh token appears in the gateway output, CLI output, REST answers or the activity log', async () => {
    const stored = readStoredLogin(join(scratch.dir, 'gateway-data', 'mcpproxy.db'), 'web')!;
    const tokens = [...upstream.tokensSeen, stored.refresh_token!, stored.access_token!];
    expect(upstream.tokensSeen.size).toBeGreaterThanOrEqual(2);
    expect(tokens.every((token) => typeof token === 'string' && token.length >= 16)).toBe(true);

    for (const path of ['/servers', '/auth', '/tools', '/activity?limit=1000']) {
      const response = await fetch(`${gw.origin}/api/v1${path}`, { headers: { 'x-api-key': ADMIN_KEY } });
      seen.push(await response.text());
    }
    await cli(['activity', 'list', '--limit', '1000', '-o', 'json']);
    await cli(['servers', 'list', '-o', 'yaml']);
    const activity = activityLogText(join(scratch.dir, 'gateway-data', 'mcpproxy.db'));
    expect(activity).toContain('web:echo');

    const haystacks = { gateway: gw.output(), cli_and_rest: seen.join('\n'), activity_log: activity };
    const found = Object.entries(haystacks).flatMap(([where, text]) => tokens.filter((token) => text.includes(token)).map((token) => `${where}: ${token.slice(0, 12)}…`));
    expect(found).toEqual([]);
  });

  it('logout: the server waits for a login again (oauth_required)', async () => {
    const out = await cli(['auth', 'logout', 'web']);
    expect([out.code, out.stderr]).toEqual([0, '']);
    expect(out.stdout).toContain('Logged out of web.');
    await waitForServer(gw, 'web', ['pending_auth']);
    expect((await cli(['tools', 'preflight', 'web:echo'])).code).toBe(11);
    expect(JSON.parse((await cli(['auth', 'status', '-o', 'json'])).stdout)).toEqual({ servers: [expect.objectContaining({ name: 'web', login: 'needed' })] });
  });

  it('an unknown server, or --no-browser with a token: exit 1 with one line', async () => {
    const unknown = await cli(['auth', 'login', 'ghost', '--no-browser']);
    expect([unknown.code, isOneLineError(unknown.stderr)]).toEqual([1, true]);
    expect(unknown.stderr).toContain('No server named ghost');
    const both = await cli(['auth', 'login', 'web', '--token', 'x', '--no-browser']);
    expect([both.code, isOneLineError(both.stderr)]).toEqual([1, true]);
  });
});

/** Runs `mcpproxy <args> --no-browser` against the test's gateway, and does the browser's part. */
async function loginWithBrowser(args: readonly string[]): Promise<BrowserLogin> {
  const login = await browserLogin([...args, ...gw.flags], { env: baseEnv(scratch.dir), callbackPort });
  seen.push(login.run.stdout, login.run.stderr);
  return login;
}

async function callEcho(text: string): Promise<string> {
  const client = new Client({ name: 'oauth-cli-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gw.mcpUrl)));
  try {
    return JSON.stringify(await client.callTool({ name: 'web:echo', arguments: { text } }));
  } finally {
    await client.close();
  }
}
