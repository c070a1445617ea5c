import { checkValue, strictValidators } from '@mcpproxy/schema';
import type { GatewayRuntime } from '../state/gateway-runtime.js';
import type { Store } from '../store/store.js';
import { apiError } from './api-error.js';
import type { RestEndpoint } from './rest-endpoint.js';
import { runRuntimeAction } from './runtime-action-reply.js';
import { serverInfo } from './server-inventory.js';
import { servedNames } from './served-set.js';

/**
 * POST /api/v1/servers/{name}/login (operator): stores a bearer credential for an HTTP upstream
 * (`mcpproxy auth login`), then reconnects an enabled server so a pending_auth state clears. The
 * connection reads the credential at each attempt; it is never echoed, logged or put in the config.
 */
export function serverLoginEndpoint(
  runtime: GatewayRuntime,
  store: Pick<Store, 'setUpstreamCredential'>,
  /** Called once the credential is stored (the OAuth logins forget their tokens: one credential at a time). */
  stored?: (server: string) => Promise<void>,
): RestEndpoint {
  return {
    method: 'POST',
    path: '/servers/{name}/login',
    operatorOnly: true,
    async handle(request) {
      const name = request.params['name']!;
      const body = await request.body();
      if (!body.ok) return apiError(body.status, body.code, body.message, body.path);
      const checked = checkValue(strictValidators.LoginRequest, body.value);
      if (!checked.ok) return apiError(400, 'invalid_body', 'Expected { "token": "<bearer token>" } (printable ASCII, no spaces)', checked.issues[0]?.path ?? '');
      const server = runtime.current().snapshot.servers.get(name);
      if (server === undefined) return apiError(404, 'not_found', `No server named ${name} is configured`, 'name');
      if (server.transport !== 'http') return apiError(409, 'conflict', `Server ${name} is a stdio server: a login applies to HTTP upstreams`, 'name');
      try {
        await store.setUpstreamCredential(name, checked.value.token);
        await stored?.(name);
      } catch {
        return apiError(503, 'state_unavailable', 'The credential could not be stored; nothing was changed', 'name');
      }
      // A disabled server keeps the credential for when it is enabled again.
      if (server.enabled) {
        const failed = await runRuntimeAction(() => runtime.restart(name), 'name');
        if (failed !== undefined) return failed;
      }
      const state = runtime.current();
      const current = state.snapshot.servers.get(name) ?? server;
      return { status: 200, body: serverInfo(state, current, servedNames(state, request.principal.scope)) };
    },
  };
}
