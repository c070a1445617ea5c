import type { GatewayEventFeed } from './gateway-event-feed.js';
import type { RestEndpoint } from './rest-endpoint.js';

/**
 * GET /api/v1/events (operator): server-sent events of state changes, read with fetch so the key
 * travels in a header (the browser's EventSource cannot send one, and a key in the URL would land in
 * logs and history).
 */
export function eventsEndpoint(feed: GatewayEventFeed): RestEndpoint {
  return {
    method: 'GET',
    path: '/events',
    operatorOnly: true,
    handle(request) {
      const holder = request.principal.tier === 'operator' ? 'operator' : `token:${request.principal.tokenName}`;
      return {
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
        stream: (res) => feed.open(res, holder),
      };
    },
  };
}
