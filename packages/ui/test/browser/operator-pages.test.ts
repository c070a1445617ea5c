// The operator UI in headless Chromium against `mcpproxy serve` on the embedded default (the built
// CLI, its bundled demo upstream, the admin key it prints): sign-in, each page's actions checked on
// REST, live updates without a reload, a CLI preflight found by its request ID, the CSP, and axe on
// every page at desktop and phone width (a screenshot of each is kept in test-artifacts/).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, screenshot, seriousViolations, startBrowser, type BrowserSession } from './browser-session.js';
import { eventually, rest, runCli, Scratch, serveGateway, type ServedGateway } from './cli-gateway.js';
import { openPage, openSignIn, signIn } from './operator-session.js';
import { atPageBarArrival, focusedOnArrival } from './page-bar-arrival.js';

let scratch: Scratch;
let gateway: ServedGateway;
let browser: BrowserSession;
let admin: { apiKey: string };

beforeAll(async () => {
  scratch = new Scratch();
  [gateway, browser] = await Promise.all([serveGateway(scratch), startBrowser()]);
  admin = { apiKey: gateway.printedKey };
  await eventually(async () => {
    const { body } = await rest(gateway.origin, admin, 'GET', '/servers');
    expect(body.servers).toEqual([expect.objectContaining({ name: 'demo', state: 'ready' })]);
  });
});

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
  scratch?.remove();
});

const row = (page: Page, attribute: string, value: string) => page.locator(`tr[${attribute}="${value}"]`);

describe('sign-in', () => {
  it('serves /ui/ on the embedded default; a wrong key and an agent token are refused, the printed key signs in', async () => {
    const page = await browser.page();
    await openSignIn(page, gateway.origin);
    await page.getByLabel('Admin API key').fill('not-the-admin-key-0123456789');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('refused this key');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    const token = await rest(gateway.origin, admin, 'POST', '/tokens', { name: 'signin-agent', allowed_servers: ['*'] });
    await page.getByLabel('Admin API key').fill(token.body.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Agent tokens cannot sign in');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    await page.getByLabel('Admin API key').fill(gateway.printedKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await row(page, 'data-server', 'demo').locator('[data-field="state"]', { hasText: 'ready' }).waitFor();
    // Kept in this tab only, sent as a header: never in the URL, never a cookie.
    expect(page.url()).not.toContain(gateway.printedKey);
    expect(await page.context().cookies()).toEqual([]);
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(['mcpproxy.adminKey']);
    await page.close();
  });
});

describe('navigation', () => {
  it('shows the page the address names even when it changed before the app listened for changes', async () => {
    const page = await browser.page();
    // On a slow machine a person can follow a link of the page bar the moment it appears, before the
    // app's effects have run: the address is changed here at that moment, every time.
    await atPageBarArrival(page, { goTo: '#/tools' });
    await signIn(page, gateway.origin, gateway.printedKey);
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    expect(await page.getByRole('link', { name: 'Tools', exact: true }).getAttribute('aria-current')).toBe('page');
    await page.close();
  });

  it("gives a new page's heading the focus as it is shown, before a key pressed at once could land elsewhere", async () => {
    const page = await browser.page();
    // Where the focus is the moment the page bar appears: a key pressed then must not be taken back
    // afterwards by the heading (it was, a paint later, and Enter on a link did nothing).
    await atPageBarArrival(page);
    await signIn(page, gateway.origin, gateway.printedKey);
    expect(await focusedOnArrival(page)).toBe('H1');
    await page.getByRole('link', { name: 'Tools', exact: true }).press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Tools' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Tools');
    await page.close();
  });
});

describe('servers', () => {
  it('quarantine from the UI is visible on REST, and unquarantine lifts it', async () => {
    const page = await browser.page();
    await signIn(page, gateway.origin, gateway.printedKey);
    await page.getByRole('button', { name: 'Quarantine demo' }).click();
    await eventually(async () => {
      const { body } = await rest(gateway.origin, admin, 'GET', '/servers');
      expect(body.servers[0]).toMatchObject({ name: 'demo', quarantined: true });
    });
    await row(page, 'data-server', 'demo').locator('[data-field="flags"]', { hasText: 'quarantined' }).waitFor();
    await page.getByRole('button', { name: /^Unquarantine demo/ }).click();
    await eventually(async () => {
      const { body } = await rest(gateway.origin, admin, 'GET', '/servers');
      expect(body.servers[0]).toMatchObject({ name: 'demo', quarantined: false });
    });
    await page.close();
  });

  it("live: a server's state changes on the page, without a reload, when it changes on the gateway", async () => {
    const page = await browser.page();
    await signIn(page, gateway.origin, gateway.printedKey);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const state = row(page, 'data-server', 'demo').locator('[data-field="state"]');
    await state.filter({ hasText: 'ready' }).waitFor();
    // A reload would lose this.
    await page.evaluate(() => ((globalThis as unknown as { sameDocument: boolean }).sameDocument = true));

    expect((await rest(gateway.origin, admin, 'POST', '/servers/demo/disable')).status).toBe(200);
    await state.filter({ hasText: 'disabled' }).waitFor();
    expect((await rest(gateway.origin, admin, 'POST', '/servers/demo/enable')).status).toBe(200);
    await state.filter({ hasText: 'ready' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await page.close();
  });
});

describe('preflight and activity', () => {
  it('the Preflight page shows the verdict table with reasons, remediation and did-you-mean, at the operator tier and as a token', async () => {
    await rest(gateway.origin, admin, 'POST', '/tokens', { name: 'demo-only', allowed_servers: ['demo'] });
    const page = await browser.page();
    await signIn(page, gateway.origin, gateway.printedKey);
    await openPage(page, 'Preflight');
    await page.getByLabel(/^Tool IDs/).fill('demo:echo\ndemo:ech, ghost:anything');
    await page.getByRole('button', { name: 'Run preflight' }).click();
    await page.locator('[data-field="verdict"]', { hasText: 'unknown_ids' }).waitFor();
    expect(await row(page, 'data-tool', 'demo:echo').locator('[data-field="status"]').textContent()).toBe('ready');
    expect(await row(page, 'data-tool', 'demo:ech').locator('[data-field="did-you-mean"]').textContent()).toBe('demo:echo');
    expect(await row(page, 'data-tool', 'ghost:anything').locator('[data-field="reason"]').textContent()).toBe('server_not_configured');
    expect(await row(page, 'data-tool', 'ghost:anything').locator('[data-field="action"]').textContent()).toBe('configure');
    expect(await row(page, 'data-tool', 'ghost:anything').textContent()).toContain('mcpproxy');

    // As the token would see it: an unconfigured server reads exactly like an unknown tool.
    await page.getByLabel('Evaluate as').selectOption('demo-only');
    await page.getByRole('button', { name: 'Run preflight' }).click();
    await row(page, 'data-tool', 'ghost:anything').locator('[data-field="reason"]', { hasText: 'not_found' }).waitFor();
    await screenshot(page, 'preflight-as-token-1280');
    await page.close();
  });

  it('a request ID printed by a CLI preflight finds its record on the Activity page; server and verdict filter it', async () => {
    const run = await runCli(scratch, ['tools', 'preflight', 'demo:echo', 'demo:nope', '-o', 'json', '--url', gateway.origin, '--api-key', gateway.printedKey]);
    expect(run.code, `${run.stdout}\n${run.stderr}\nthe gateway's output:\n${gateway.output().slice(-4000)}`).toBe(12);
    const requestId = (JSON.parse(run.stdout) as { request_id: string }).request_id;

    const page = await browser.page();
    await signIn(page, gateway.origin, gateway.printedKey);
    await openPage(page, 'Activity');
    await page.getByLabel('Request ID').fill(requestId);
    await page.getByRole('button', { name: 'Search' }).click();
    const found = row(page, 'data-request-id', requestId);
    // The unfiltered list (shown before the search answers) holds the record too: wait for the filter.
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await found.waitFor();
    expect(await found.textContent()).toContain('cli');
    expect(await found.textContent()).toContain('demo:nope not_found');

    await page.getByLabel('Request ID').fill('');
    await page.getByLabel('Verdict').selectOption('ready');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText(/records, newest first|No records match/).waitFor();
    await expect.poll(() => found.count()).toBe(0);
    await page.getByLabel('Verdict').selectOption('unknown_ids');
    await page.getByLabel('Server').selectOption('demo');
    await page.getByRole('button', { name: 'Search' }).click();
    await found.waitFor();
    await screenshot(page, 'activity-filtered-1280');
    await page.close();
  });
});

describe('tokens', () => {
  it('a token created in the UI shows its secret once and works; revoked in the UI, it is refused', async () => {
    const page = await browser.page();
    await signIn(page, gateway.origin, gateway.printedKey);
    await openPage(page, 'Tokens');
    await page.getByLabel(/^Name/).fill('ui-made');
    await page.getByRole('group', { name: 'Servers it may use' }).getByLabel('demo').check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.locator('[data-field="secret"]').inputValue();
    expect(secret).toMatch(/^mcpp_/);
    await screenshot(page, 'tokens-created-1280');
    expect((await rest(gateway.origin, { bearer: secret }, 'GET', '/tools')).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke ui-made' }).click();
    await row(page, 'data-token', 'ui-made').locator('[data-field="token-status"]', { hasText: 'revoked' }).waitFor();
    expect((await rest(gateway.origin, { bearer: secret }, 'GET', '/tools')).status).toBe(401);
    const listed = await rest(gateway.origin, admin, 'GET', '/tokens');
    expect(listed.body.tokens).toContainEqual(expect.objectContaining({ name: 'ui-made', revoked: true }));
    // Shown once: the list never carries it, and a reload of the page does not bring it back.
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Tokens' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.close();
  });
});

describe('every page', () => {
  it('passes axe-core with no serious or critical violation at 1280 px and at phone width, under a CSP that reports nothing', async () => {
    const page = await browser.page();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/.test(message.text())) violations.push(message.text());
    });
    await signIn(page, gateway.origin, gateway.printedKey);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      for (const title of ['Servers', 'Tools', 'Preflight', 'Activity', 'Tokens']) {
        await openPage(page, title);
        if (title === 'Tools') await page.getByRole('link', { name: 'Review demo:echo' }).click();
        if (title === 'Tools') await page.getByRole('heading', { name: 'Review demo:echo' }).waitFor();
        if (title === 'Activity') await page.getByRole('button', { name: 'Search' }).click();
        if (title === 'Activity') await page.locator('caption').first().waitFor();
        expect(await seriousViolations(page), `${title} at ${viewport.width} px`).toEqual([]);
        await screenshot(page, `${title.toLowerCase()}-${viewport.width}`);
      }
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin API key').waitFor();
    expect(await seriousViolations(page), 'sign-in').toEqual([]);
    await screenshot(page, 'sign-in-390');
    expect(violations).toEqual([]);
    await page.close();
  });

  it('the page runs no script but its own: an inline script is refused by the CSP', async () => {
    const page = await browser.page();
    await signIn(page, gateway.origin, gateway.printedKey);
    const outcome = await page.evaluate(
      () =>
        new Promise<{ ran: boolean; violated: string }>((resolve) => {
          document.addEventListener('securitypolicyviolation', (event) => resolve({ ran: (globalThis as unknown as { inlineRan?: boolean }).inlineRan === true, violated: event.violatedDirective }), { once: true });
          const script = document.createElement('script');
          script.textContent = 'globalThis.inlineRan = true;';
          document.body.append(script);
        }),
    );
    expect(outcome).toEqual({ ran: false, violated: 'script-src-elem' });
    await page.close();
  });
});
