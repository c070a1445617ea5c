// A login whose redirect the gateway receives itself (POST .../oauth/login?callback=gateway: a login
// started in the operator UI, whose browser has no `mcpproxy auth login` waiting for it), against a real
// authorization server (consent automated) and an upstream that accepts only its tokens. The gateway
// listens on the loopback callback (the registered redirect URI) only while such a login waits: the
// "browser" lands there, the login finishes on its state alone, the page says so, and the port is free
// again. A Host of another name (DNS rebinding) and a wrong state change nothing; the wait ends at the
// login's expiry, or when a caller's login (the CLI's) takes the port; a port already taken is a 409.
import { createConnection, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_TTL_MS } from '../src/oauth/login-flow.js';
import { fetchWithHost } from './host-header-fetch.js';
import { followAuthorization } from './oauth-world/headless-browser.js';
import { freeLoopbackPort } from './oauth-world/free-loopback-port.js';
import { OAuthWorld } from './oauth-world/oauth-world.js';
import { readStoredLogin } from './oauth-world/stored-oauth.js';

let world: OAuthWorld;
let port: number;
let redirectUri: string;

beforeAll(async () => {
  world = await OAuthWorld.start();
  port = await freeLoopbackPort();
  redirectUri = `http://127.0.0.1:${port}/oauth/callback`;
  await world.startGateway({}, {}, { oauth_callback_port: port });
  await world.waitForWeb('pending_auth');
});
afterAll(async () => {
  await world?.close();
});

/** Whether something accepts connections on the callback port now. */
function listening(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function startForGateway(): Promise<string> {
  const started = await world.rest('POST', '/servers/web/oauth/login?callback=gateway');
  expect([started.status, started.body['redirect_uri']]).toEqual([200, redirectUri]);
  return started.body['authorization_url'] as string;
}

/** A request to the callback as a browser would send it, with this Host. */
async function visit(path: string, host = `127.0.0.1:${port}`): Promise<{ status: number; body: string; headers: Headers }> {
  const response = await fetchWithHost(host)(`http://127.0.0.1:${port}${path}`);
  return { status: response.status, body: await response.text(), headers: response.headers };
}

describe('the gateway receives the redirect of a login started with callback=gateway', () => {
  it('listens only while the login waits; the browser lands there, the login finishes, the page says so; then ready', async () => {
    expect(await listening()).toBe(false);
    const url = await startForGateway();
    expect(await listening()).toBe(true);

    const browser = await followAuthorization(url, { redirectPrefix: redirectUri, visitCallback: true });
    expect(browser.callbackStatus).toBe(200);
    expect(browser.callbackBody).toContain('Logged in to web.');
    await world.waitForWeb('ready');
    expect((await world.preflight())['status']).toBe('ready');
    expect(await world.callEcho('received by the gateway')).toContain('received by the gateway');
    expect(await eventuallyFalse(listening)).toBe(false);
    expect(readStoredLogin(world.storePath, 'web')).toMatchObject({ pending: false, access_token: expect.any(String) });
  });

  it('another Host (DNS rebinding), another path or a wrong state change nothing; the page runs nothing', async () => {
    const url = await startForGateway();
    const browser = await followAuthorization(url, { redirectPrefix: redirectUri });
    const query = browser.callback.search;

    const rebound = await visit(`/oauth/callback${query}`, `attacker.example:${port}`);
    expect(rebound.status).toBe(421);
    expect((await visit(`/elsewhere${query}`)).status).toBe(404);
    const forged = new URLSearchParams(browser.callback.searchParams);
    forged.set('state', `${forged.get('state')!}x`);
    const wrong = await visit(`/oauth/callback?${forged.toString()}`);
    expect([wrong.status, wrong.body]).toEqual([400, expect.stringContaining('unknown')]);
    expect(wrong.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(readStoredLogin(world.storePath, 'web')?.pending).toBe(true);

    const right = await visit(`/oauth/callback${query}`);
    expect([right.status, right.body]).toEqual([200, expect.stringContaining('Logged in to web.')]);
    expect(await eventuallyFalse(listening)).toBe(false);
  });

  it('the wait ends when the login expires, and when a caller\'s login takes the port', async () => {
    await startForGateway();
    expect(await listening()).toBe(true);
    await world.advance(LOGIN_TTL_MS);
    expect(await eventuallyFalse(listening)).toBe(false);

    await startForGateway();
    expect(await listening()).toBe(true);
    const caller = await world.rest('POST', '/servers/web/oauth/login');
    expect(caller.status).toBe(200);
    expect(await eventuallyFalse(listening)).toBe(false);
  });

  it('a port already taken (a command waiting for its own redirect) is a 409 naming it', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const refused = await world.rest('POST', '/servers/web/oauth/login?callback=gateway');
      expect([refused.status, refused.body['code'], refused.body['path']]).toEqual([409, 'conflict', 'callback']);
      expect(refused.body['message']).toContain(`127.0.0.1:${port} is in use`);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });
});

/** The listener closes without being awaited (a page may still be on its way out): poll a little. */
async function eventuallyFalse(check: () => Promise<boolean>): Promise<boolean> {
  const deadline = performance.now() + 10_000;
  while (await check()) {
    if (performance.now() > deadline) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}
