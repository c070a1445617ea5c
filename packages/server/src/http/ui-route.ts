import type { ServerResponse } from 'node:http';
import type { HttpRoute } from './http-route.js';
import { loadUiAssets, type UiAsset } from './ui-assets.js';

export const UI_PATH = '/ui';

/**
 * Only this origin's own files; no inline script or style, no frames, no plugins, no form posts
 * (the sign-in form is handled by script, so a key can never be submitted into a URL).
 */
export const UI_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': UI_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/**
 * The operator UI under /ui: static files built into this package, served on the gateway's one
 * listener behind its Host/Origin guard. They hold no data and no credential: the UI signs in with
 * the admin API key, which it keeps in the tab's sessionStorage and sends as X-API-Key to /api/v1.
 */
export function uiRoute(load: () => ReadonlyMap<string, UiAsset> | undefined = loadUiAssets): HttpRoute {
  const assets = load();
  return {
    match(pathname) {
      if (pathname !== UI_PATH && !pathname.startsWith(`${UI_PATH}/`)) return undefined;
      return (req, res) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, `Use GET ${pathname}`, { allow: 'GET, HEAD' });
        // Relative URLs in the page resolve below /ui/ only with the trailing slash.
        if (pathname === UI_PATH) return sendText(res, 308, 'The operator UI is at /ui/', { location: `${UI_PATH}/` });
        if (assets === undefined) return sendText(res, 503, 'The operator UI is not built into this package: build @mcpproxy/server with its UI (pnpm nx run @mcpproxy/server:build).');
        const path = pathname.slice(UI_PATH.length + 1);
        const asset = assets.get(path === '' ? 'index.html' : path);
        if (asset === undefined) return sendText(res, 404, `No file ${pathname}`);
        res.writeHead(200, {
          ...SECURITY_HEADERS,
          'content-type': asset.type,
          'content-length': String(asset.body.length),
          'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
        res.end(req.method === 'HEAD' ? undefined : asset.body);
      };
    },
  };
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
