import { parseToolId } from '@mcpproxy/evaluator';
import type { ToolDefinition, ToolReview } from '@mcpproxy/schema';
import { OPERATOR } from '../auth/rest-principal.js';
import type { GatewayRuntime } from '../state/gateway-runtime.js';
import type { Store } from '../store/store.js';
import { reviewedDefinition } from '../upstream/reviewed-definition.js';
import { apiError } from './api-error.js';
import type { RestEndpoint } from './rest-endpoint.js';
import { servedNames } from './served-set.js';
import { knownTools, toolInfo } from './tool-inventory.js';

/**
 * GET /api/v1/tools/{id}/review (operator): the tool's listing entry, the definition its upstream
 * lists now and the one recorded when its approved hash was approved, for a side-by-side review of
 * a changed tool before it is approved again.
 */
export function toolReviewEndpoint(runtime: Pick<GatewayRuntime, 'current'>, store: Pick<Store, 'getApprovedDefinition'>): RestEndpoint {
  return {
    method: 'GET',
    path: '/tools/{id}/review',
    operatorOnly: true,
    async handle(request) {
      const id = request.params['id']!;
      const parsed = parseToolId(id);
      if (!parsed.ok) return apiError(404, 'not_found', `Not a tool id (expected server:tool): ${id}`, 'id');
      const state = runtime.current();
      const server = state.snapshot.servers.get(parsed.server);
      if (server === undefined) return apiError(404, 'not_found', `No server named ${parsed.server} is configured`, 'id');
      if (!knownTools(server).includes(parsed.tool)) return apiError(404, 'not_found', `Server ${parsed.server} has no known tool ${parsed.tool}`, 'id');
      const info = toolInfo(state, server, parsed.tool, 'operator', servedNames(state, OPERATOR.scope));
      let approvedText: string | undefined;
      try {
        approvedText = info.approved_hash === undefined ? undefined : await store.getApprovedDefinition(parsed.server, parsed.tool);
      } catch {
        return apiError(503, 'state_unavailable', 'The approved definition could not be read', 'id');
      }
      const listed = server.tools.get(parsed.tool);
      const approved = approvedText === undefined ? undefined : (JSON.parse(approvedText) as ToolDefinition);
      const review: ToolReview = {
        tool: info,
        ...(listed === undefined ? {} : { current: reviewedDefinition(listed.definition) }),
        ...(approved === undefined ? {} : { approved }),
        approved_recorded: info.approved_hash === undefined || approved !== undefined,
      };
      return { status: 200, body: review };
    },
  };
}
