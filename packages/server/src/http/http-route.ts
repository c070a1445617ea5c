import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * One path family served by the gateway's single HTTP server (/healthz, /api/v1, /mcp).
 * `match` returns undefined when the route does not own the path, so routes compose by order.
 */
export interface HttpRoute {
  match(pathname: string): ((req: IncomingMessage, res: ServerResponse) => Promise<void> | void) | undefined;
}
