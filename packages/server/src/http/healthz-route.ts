import type { HttpRoute } from './http-route.js';
import { sendJson } from './json-response.js';

export const HEALTHZ_PATH = '/healthz';

/** Liveness: answers without auth and without touching upstreams or the store. */
export const healthzRoute: HttpRoute = {
  match(pathname) {
    if (pathname !== HEALTHZ_PATH) return undefined;
    return (req, res) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendJson(res, 405, { code: 'method_not_allowed', message: 'Use GET /healthz', path: '/healthz' }, { allow: 'GET, HEAD' });
        return;
      }
      sendJson(res, 200, { status: 'ok' });
    };
  },
};
