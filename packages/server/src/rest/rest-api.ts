import type { RestCredentials } from '../auth/rest-authentication.js';
import type { HttpRoute } from '../http/http-route.js';
import type { OAuthLogins } from '../oauth/oauth-logins.js';
import type { PreflightSeam } from '../preflight/preflight-seam.js';
import type { GatewayRuntime } from '../state/gateway-runtime.js';
import type { Store } from '../store/store.js';
import { tokenScopeByName } from '../auth/token-scope-by-name.js';
import { activityEndpoint } from './activity-endpoint.js';
import { eventsEndpoint } from './events-endpoint.js';
import type { GatewayEventFeed } from './gateway-event-feed.js';
import { oauthEndpoints } from './oauth-endpoints.js';
import { openApiEndpoint } from './openapi-endpoint.js';
import { preflightEndpoint } from './preflight-endpoint.js';
import { restRoute } from './rest-route.js';
import { serverEndpoints } from './server-endpoints.js';
import { serverLoginEndpoint } from './server-login-endpoint.js';
import { tokenEndpoints, type ConfigTokenView } from './token-endpoints.js';
import { toolEndpoints } from './tool-endpoints.js';
import { toolReviewEndpoint } from './tool-review-endpoint.js';

export interface RestApiOptions {
  readonly runtime: GatewayRuntime;
  readonly store: Store;
  readonly preflight: PreflightSeam;
  readonly credentials: RestCredentials;
  readonly configTokens: readonly ConfigTokenView[];
  /** The operators' event streams (GET /api/v1/events); the gateway closes it when it stops. */
  readonly events: GatewayEventFeed;
  readonly onError?: (error: unknown) => void;
  /** Told after an agent token was revoked. */
  readonly onTokenRevoked?: (name: string) => void;
  /** The OAuth logins of HTTP upstreams (start, callback, logout, status). */
  readonly logins?: OAuthLogins;
}

/** The REST API under /api/v1, mounted on the gateway's one HTTP server next to /mcp. */
export function restApiRoute(options: RestApiOptions): HttpRoute {
  const { runtime, store } = options;
  return restRoute({
    endpoints: [
      preflightEndpoint(options.preflight, (name) => tokenScopeByName(name, options.configTokens, store)),
      ...serverEndpoints(runtime),
      serverLoginEndpoint(runtime, store, options.logins === undefined ? undefined : (server) => options.logins!.forgetTokens(server)),
      ...(options.logins === undefined ? [] : oauthEndpoints({ runtime, store, logins: options.logins })),
      ...toolEndpoints(runtime),
      toolReviewEndpoint(runtime, store),
      activityEndpoint(store),
      ...tokenEndpoints({ store, runtime, configTokens: options.configTokens, credentials: options.credentials, ...(options.onTokenRevoked === undefined ? {} : { onRevoked: options.onTokenRevoked }) }),
      eventsEndpoint(options.events),
      openApiEndpoint(),
    ],
    credentials: options.credentials,
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
}
