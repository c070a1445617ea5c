// /ui on the gateway's one listener: the built UI (dist/ui, copied in by the package's build) with a
// strict Content-Security-Policy, behind the same Host/Origin guard as MCP and REST; only the built
// files are reachable, whatever the path says.
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningHttpServer } from '../src/http/http-server.js';
import { uiAssetDir } from '../src/http/ui-assets.js';
import { UI_CONTENT_SECURITY_POLICY, uiRoute } from '../src/http/ui-route.js';
import { startTestGateway, TempDir, type TestGateway } from './gateway-harness.js';
import { fetchWithHost } from './host-header-fetch.js';

let dir: TempDir;
let gw: TestGateway;
let origin: string;

beforeAll(async () => {
  dir = new TempDir();
  gw = await startTestGateway(dir, { servers: [] });
  origin = gw.gateway.origin!;
});
afterAll(async () => {
  await gw?.close();
  dir?.remove();
});

/** A raw GET whose path is sent exactly as written (fetch would normalise "..").*/
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('/ui', () => {
  it('serves the built index with a strict CSP and no caching, and sends /ui to /ui/', async () => {
    const redirect = await fetch(`${origin}/ui`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([308, '/ui/']);
    const page = await fetch(`${origin}/ui/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(UI_CONTENT_SECURITY_POLICY);
    expect(UI_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|\*|data:|http/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('set-cookie')).toBeNull();
    const html = await page.text();
    // No inline script or style: every script and stylesheet is a file of its own under /ui/.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|style=/);
    expect(html).toMatch(/<script type="module" crossorigin src="\/ui\/assets\/[^"]+\.js">/);
  });

  it('serves every built asset with its type and long caching, under the same CSP', async () => {
    const assets = readdirSync(`${uiAssetDir()}/assets`);
    expect(assets.some((name) => name.endsWith('.js')) && assets.some((name) => name.endsWith('.css'))).toBe(true);
    for (const name of assets) {
      const answer = await fetch(`${origin}/ui/assets/${name}`);
      expect(answer.status, name).toBe(200);
      expect(answer.headers.get('content-type'), name).toMatch(name.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.get('content-security-policy')).toBe(UI_CONTENT_SECURITY_POLICY);
    }
    const head = await fetch(`${origin}/ui/`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('reaches no other file: unknown names, traversal and encoded traversal are 404; other methods 405', async () => {
    for (const path of ['/ui/nope.js', '/ui/../package.json', '/ui/assets/../../package.json', '/ui/%2e%2e/package.json', '/ui/assets/%2e%2e%2f%2e%2e%2fpackage.json', '/ui//etc/passwd']) {
      const answer = await rawGet(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).not.toContain('"name"');
    }
    const post = await fetch(`${origin}/ui/`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('is behind the Host/Origin guard: a rebinding name or a foreign Origin is 403', async () => {
    const rebound = await fetchWithHost('attacker.example:80')(`${origin}/ui/`);
    expect(rebound.status).toBe(403);
    const foreign = await fetch(`${origin}/ui/`, { headers: { origin: 'http://attacker.example' } });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).not.toContain('<html');
  });

  it('says so, with 503, when the package was built without its UI', async () => {
    let server: RunningHttpServer | undefined;
    try {
      server = await startHttpServer({ listen: { host: '127.0.0.1', port: 0 }, routes: [uiRoute(() => undefined)] });
      const answer = await fetch(`${server.origin}/ui/`);
      expect(answer.status).toBe(503);
      expect(await answer.text()).toContain('not built into this package');
    } finally {
      await server?.close();
    }
  });
});
