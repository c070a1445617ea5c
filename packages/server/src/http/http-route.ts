import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * One path family served by the gateway's single HTTP server (/healthz, /api/v1, /mcp).
 * `match` returns undefined when the route does not own the path, so routes compose by order.
 */
export interface HttpRoute {
  match(pathname: string): ((req: IncomingMessage, res: ServerResponse) => Promise<void> | void) | undefined;
}

/** The path of a request target, without its query. */
export function requestPath(rawUrl: string | undefined): string {
  const url = rawUrl ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** Hands the request to the first route that owns its path; false when none does (the caller answers 404). */
export async function routeRequest(routes: readonly HttpRoute[], pathname: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  for (const route of routes) {
    const handle = route.match(pathname);
    if (handle !== undefined) {
      await handle(req, res);
      return true;
    }
  }
  return false;
}
