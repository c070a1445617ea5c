import type { RestCredentials } from '../auth/rest-authentication.js';
import type { HttpRoute } from '../http/http-route.js';
import type { PreflightSeam } from '../preflight/preflight-seam.js';
import type { GatewayRuntime } from '../state/gateway-runtime.js';
import type { Store } from '../store/store.js';
import { activityEndpoint } from './activity-endpoint.js';
import { openApiEndpoint } from './openapi-endpoint.js';
import { preflightEndpoint } from './preflight-endpoint.js';
import { restRoute } from './rest-route.js';
import { serverEndpoints } from './server-endpoints.js';
import { serverLoginEndpoint } from './server-login-endpoint.js';
import { tokenEndpoints, type ConfigTokenView } from './token-endpoints.js';
import { toolEndpoints } from './tool-endpoints.js';

export interface RestApiOptions {
  readonly runtime: GatewayRuntime;
  readonly store: Store;
  readonly preflight: PreflightSeam;
  readonly credentials: RestCredentials;
  readonly configTokens: readonly ConfigTokenView[];
  readonly onError?: (error: unknown) => void;
  /** Told after an agent token was revoked. */
  readonly onTokenRevoked?: (name: string) => void;
}

/** The REST API under /api/v1, mounted on the gateway's one HTTP server next to /mcp. */
export function restApiRoute(options: RestApiOptions): HttpRoute {
  const { runtime, store } = options;
  return restRoute({
    endpoints: [
      preflightEndpoint(options.preflight),
      ...serverEndpoints(runtime),
      serverLoginEndpoint(runtime, store),
      ...toolEndpoints(runtime),
      activityEndpoint(store),
      ...tokenEndpoints({ store, runtime, configTokens: options.configTokens, credentials: options.credentials, ...(options.onTokenRevoked === undefined ? {} : { onRevoked: options.onTokenRevoked }) }),
      openApiEndpoint(),
    ],
    credentials: options.credentials,
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
}
