// Config reload meets OAuth, in a real `serve --stdio` process held open by an SDK client, with a real
// authorization server (oidc-provider, consent automated) and an upstream that accepts only its tokens.
// An HTTP upstream added by SIGHUP can log in (over REST on the local socket) and then serves calls; a
// changed oauth block takes effect on the next login and ends a login started with the old client; a
// removed server's pending login ends while its tokens stay in the store, so adding it back brings it
// up ready with no new login, as a restart on that file would.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthorizationServer, type AuthorizationServer } from './oauth-world/authorization-server.js';
import { followAuthorization } from './oauth-world/headless-browser.js';
import { startProtectedUpstream, type ProtectedUpstream } from './oauth-world/protected-upstream.js';
import { readStoredLogin } from './oauth-world/stored-oauth.js';
import { eventually } from './fixture-process.js';
import { FIXTURE_MAIN, TempDir, toolText } from './gateway-harness.js';
import { holdStdioGateway, logged, type Held } from './held-stdio-gateway.js';
import { socketRequest } from './socket-request.js';

const ADMIN = { 'x-api-key': 'a-configured-admin-key-123' };
/** Nothing listens here: the test's "browser" stops at the redirect and hands its query over itself. */
const CALLBACK_PORT = 8799;
const REDIRECT_URI = `http://127.0.0.1:${CALLBACK_PORT}/oauth/callback`;
const BY_HAND = 'mcpproxy-registered-by-hand';

let dir: TempDir;
let as: AuthorizationServer;
let upstream: ProtectedUpstream;
let held: Held;
let configFile: string;
let base: Record<string, unknown>;

const keep = () => ({ name: 'keep', command: process.execPath, args: [FIXTURE_MAIN, '--demo'], quarantined: false });
const web = (extra: Record<string, unknown> = {}) => ({ name: 'web', url: upstream.url, quarantined: false, ...extra });

/** Writes the file, sends SIGHUP, and answers what the reload logged. */
async function reloadWith(servers: readonly Record<string, unknown>[]): Promise<string> {
  const at = held.stderr().length;
  writeFileSync(configFile, JSON.stringify({ ...base, servers }));
  process.kill(held.pid, 'SIGHUP');
  await logged(held, 'config reload: done', at);
  return held.stderr().slice(at);
}

const rest = (method: string, path: string, body?: unknown, headers: Record<string, string> = ADMIN) => socketRequest(held.socket, method, `/api/v1${path}`, headers, body);

async function webState(): Promise<string | undefined> {
  const answer = await rest('GET', '/servers');
  return (answer.body as { servers: { name: string; state?: string }[] }).servers.find((server) => server.name === 'web')?.state;
}

/** Starts a login and lets the "browser" go through the authorization server: the client it used and the redirect's query. */
async function authorize(): Promise<{ clientId: string | null; query: Record<string, string> }> {
  const started = await rest('POST', '/servers/web/oauth/login');
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const url = (started.body as { authorization_url: string }).authorization_url;
  const visit = await followAuthorization(url, { redirectPrefix: REDIRECT_URI });
  return { clientId: new URL(url).searchParams.get('client_id'), query: Object.fromEntries(visit.callback.searchParams) };
}

/** The redirect's query handed to the gateway as the loopback callback would, without a credential. */
const callback = (query: Record<string, string>) => rest('POST', '/oauth/callback', query, {});

async function callEcho(text: string): Promise<string> {
  return toolText(await held.client.callTool({ name: 'web:echo', arguments: { text } }));
}

beforeAll(async () => {
  dir = new TempDir();
  as = await startAuthorizationServer({
    clients: [
      {
        client_id: BY_HAND,
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
      },
    ],
  });
  upstream = await startProtectedUpstream({ issuer: as.issuer });
  const dataDir = join(dir.path, 'data');
  // The 401 upstream's background retries stay out of the test's window.
  base = { data_dir: dataDir, api_key: ADMIN['x-api-key'], oauth_callback_port: CALLBACK_PORT, reconnect_initial_delay_ms: 120_000, reconnect_max_delay_ms: 120_000 };
  configFile = dir.file('mcpproxy.json', JSON.stringify({ ...base, servers: [keep()] }));
  held = await holdStdioGateway(configFile, dataDir);
});

afterAll(async () => {
  await held?.close();
  await upstream?.close();
  await as?.close();
  dir?.remove();
});

describe('config reload and OAuth logins (serve --stdio, SIGHUP)', () => {
  it('an HTTP upstream added by a reload can log in, and its calls then go through', async () => {
    expect(await reloadWith([keep(), web()])).toContain('config reload: server "web" added');
    await eventually(async () => expect(await webState()).toBe('pending_auth'));

    const { clientId, query } = await authorize();
    expect(clientId).not.toBe(BY_HAND);
    expect(as.registrations.count).toBe(1);
    expect(await callback(query)).toMatchObject({ status: 200, body: { server: 'web' } });
    await eventually(async () => expect(await webState()).toBe('ready'));
    expect(await callEcho('after a login')).toContain('after a login');
  });

  it('a changed oauth block is used by the next login; a login started with the old client ends', async () => {
    const before = await authorize();
    const log = await reloadWith([keep(), web({ oauth: { client_id: BY_HAND } })]);
    expect(log).toContain('config reload: server "web" changed (oauth): applied, its connection kept');
    expect(log).toContain('config reload: server "web": its OAuth login waiting for the browser\'s redirect ended (its url or oauth settings changed; start it again: mcpproxy auth login web)');
    expect(await webState()).toBe('ready');
    expect(await callback(before.query)).toMatchObject({ status: 400, body: { code: 'invalid_state' } });

    const after = await authorize();
    expect(after.clientId).toBe(BY_HAND);
    expect((await callback(after.query)).status).toBe(200);
    await eventually(async () => expect(await webState()).toBe('ready'));
    expect((await rest('GET', '/auth')).body).toEqual({ servers: [expect.objectContaining({ name: 'keep', login: 'not_needed' }), expect.objectContaining({ name: 'web', login: 'logged_in', client: 'configured' })] });
    expect(as.registrations.count).toBe(1);
  });

  it('a removed server\'s pending login ends and its tokens stay; added back, it is ready with no new login', async () => {
    const pending = await authorize();
    const codes = as.grants.authorization_code;
    const log = await reloadWith([keep()]);
    expect(log).toContain('config reload: server "web" removed');
    expect(log).toContain('config reload: server "web": its OAuth login waiting for the browser\'s redirect ended (the server was removed)');
    expect(await callback(pending.query)).toMatchObject({ status: 400, body: { code: 'invalid_state' } });
    expect(readStoredLogin(join(dir.path, 'data', 'mcpproxy.db'), 'web')).toMatchObject({ pending: false, access_token: expect.any(String), refresh_token: expect.any(String) });

    expect(await reloadWith([keep(), web({ oauth: { client_id: BY_HAND } })])).toContain('config reload: server "web" added');
    await eventually(async () => expect(await webState()).toBe('ready'));
    expect(await callEcho('back again')).toContain('back again');
    expect(as.grants.authorization_code).toBe(codes);
  });
});
