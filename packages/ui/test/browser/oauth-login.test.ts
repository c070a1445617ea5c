// The "done when" for an OAuth upstream, walked in a real browser: `mcpproxy serve` (the built
// CLI) with an HTTP upstream that accepts only the tokens of a real authorization server (the server
// package's OAuth test world: oidc-provider, consent automated). The operator sees the server waiting
// for a login and preflight answering oauth_required, clicks Log in, the new tab goes through the
// authorization server and lands on the gateway's own loopback callback, and the server becomes
// ready: on the page without a reload, and in REST preflight. The page shows the login, never a token.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAuthorizationServer, TEST_SCOPE, type AuthorizationServer } from '../../../server/test/oauth-world/authorization-server.js';
import { freeLoopbackPort } from '../../../server/test/oauth-world/free-loopback-port.js';
import { startProtectedUpstream, type ProtectedUpstream } from '../../../server/test/oauth-world/protected-upstream.js';
import { screenshot, seriousViolations, startBrowser, type BrowserSession } from './browser-session.js';
import { eventually, rest, Scratch, serveGateway, type ServedGateway } from './cli-gateway.js';
import { signIn } from './operator-session.js';

let scratch: Scratch;
let as: AuthorizationServer;
let upstream: ProtectedUpstream;
let gateway: ServedGateway;
let browser: BrowserSession;
let admin: { apiKey: string };

beforeAll(async () => {
  scratch = new Scratch();
  as = await startAuthorizationServer();
  upstream = await startProtectedUpstream({ issuer: as.issuer });
  const callbackPort = await freeLoopbackPort();
  [gateway, browser] = await Promise.all([
    serveGateway(scratch, {
      oauth_callback_port: callbackPort,
      // A 401 upstream is retried in the background; keep those retries out of the test's way.
      reconnect_initial_delay_ms: 60_000,
      reconnect_max_delay_ms: 60_000,
      servers: [{ name: 'web', url: upstream.url, quarantined: false }],
    }),
    startBrowser(),
  ]);
  admin = { apiKey: gateway.printedKey };
  await eventually(async () => {
    const { body } = await rest(gateway.origin, admin, 'POST', '/preflight', { tools: [{ id: 'web:echo' }] });
    expect(body.tools[0]).toMatchObject({ status: 'unavailable', reason: 'oauth_required' });
  });
});

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
  await upstream?.close();
  await as?.close();
  scratch?.remove();
});

const webRow = (page: Page) => page.locator('tr[data-server="web"]');

it('an operator logs in to an OAuth upstream from the Servers page; the server becomes ready, preflight ready', async () => {
  const page = await browser.page();
  await signIn(page, gateway.origin, gateway.printedKey);
  await webRow(page).locator('[data-field="state"]', { hasText: 'pending_auth' }).waitFor();
  await webRow(page).locator('[data-field="login"]', { hasText: 'needed' }).waitFor();
  expect(await seriousViolations(page)).toEqual([]);

  const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'Log in to web' }).click()]);
  // The authorization server consents on its own and sends the tab to the gateway's loopback callback.
  await tab.getByText('Logged in to web.').waitFor({ timeout: 60_000 });
  expect(new URL(tab.url()).pathname).toBe('/oauth/callback');
  expect(tab.url()).not.toContain(gateway.printedKey);
  expect(await tab.evaluate(() => window.opener)).toBeNull();
  await tab.close();

  await webRow(page).locator('[data-field="state"]', { hasText: 'ready' }).waitFor({ timeout: 60_000 });
  const login = webRow(page).locator('[data-field="login"]');
  await login.getByText('logged in').waitFor();
  await expect.poll(() => login.textContent()).toContain(`scopes: ${TEST_SCOPE}`);
  expect(await login.textContent()).toContain('until');
  for (const token of upstream.tokensSeen) expect(await page.content()).not.toContain(token);
  await screenshot(page, 'servers-oauth-logged-in');

  await eventually(async () => {
    const { body } = await rest(gateway.origin, admin, 'POST', '/preflight', { tools: [{ id: 'web:echo' }] });
    expect(body.tools[0]).toMatchObject({ status: 'ready' });
  });
  await page.close();
});
