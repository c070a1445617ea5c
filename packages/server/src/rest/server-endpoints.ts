import type { GatewayRuntime } from '../state/gateway-runtime.js';
import { apiError } from './api-error.js';
import type { RestEndpoint } from './rest-endpoint.js';
import { runRuntimeAction } from './runtime-action-reply.js';
import { serverInfo, serverInventory } from './server-inventory.js';
import { servedNames } from './served-set.js';

type ServerAction = 'quarantine' | 'unquarantine' | 'enable' | 'disable' | 'restart';

const ACTIONS: Readonly<Record<ServerAction, (runtime: GatewayRuntime, server: string) => Promise<void>>> = {
  quarantine: (runtime, server) => runtime.setQuarantined(server, true),
  // Unquarantining approves the server's current tools as its baseline (the runtime's rule).
  unquarantine: (runtime, server) => runtime.setQuarantined(server, false),
  enable: (runtime, server) => runtime.setEnabled(server, true),
  disable: (runtime, server) => runtime.setEnabled(server, false),
  restart: (runtime, server) => runtime.restart(server),
};

/** GET /api/v1/servers (any tier, filtered by scope) and the operator's server actions. */
export function serverEndpoints(runtime: GatewayRuntime): RestEndpoint[] {
  const list: RestEndpoint = {
    method: 'GET',
    path: '/servers',
    operatorOnly: false,
    handle: (request) => ({ status: 200, body: { servers: serverInventory(runtime.current(), request.principal.scope) } }),
  };
  const actions = (Object.keys(ACTIONS) as ServerAction[]).map(
    (action): RestEndpoint => ({
      method: 'POST',
      path: `/servers/{name}/${action}`,
      operatorOnly: true,
      async handle(request) {
        const name = request.params['name']!;
        const failed = await runRuntimeAction(() => ACTIONS[action](runtime, name), 'name');
        if (failed !== undefined) return failed;
        const state = runtime.current();
        const server = state.snapshot.servers.get(name);
        if (server === undefined) return apiError(404, 'not_found', `No server named ${name} is configured`, 'name');
        return { status: 200, body: serverInfo(state, server, servedNames(state, request.principal.scope)) };
      },
    }),
  );
  return [list, ...actions];
}
