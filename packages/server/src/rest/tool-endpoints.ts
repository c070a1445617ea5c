import { parseToolId } from '@mcpproxy/evaluator';
import { strictValidators, type ToolInfo } from '@mcpproxy/schema';
import { OPERATOR } from '../auth/rest-principal.js';
import { compareServed } from '../mcp/served-listing.js';
import type { GatewayRuntime, PublishedState } from '../state/gateway-runtime.js';
import { apiError } from './api-error.js';
import type { RestEndpoint, RestReply } from './rest-endpoint.js';
import { runRuntimeAction } from './runtime-action-reply.js';
import { servedNames } from './served-set.js';
import { toolInfo, toolInventory } from './tool-inventory.js';
import { validatedBody } from './validated-body.js';

/** GET /api/v1/tools (any tier, filtered by scope) and the operator's tool actions. */
export function toolEndpoints(runtime: GatewayRuntime): RestEndpoint[] {
  const list: RestEndpoint = {
    method: 'GET',
    path: '/tools',
    operatorOnly: false,
    query: ['server'],
    handle(request) {
      const server = request.query.get('server') ?? undefined;
      return { status: 200, body: { tools: toolInventory(runtime.current(), request.principal.scope, request.principal.tier, server) } };
    },
  };

  const approve: RestEndpoint = {
    method: 'POST',
    path: '/tools/approve',
    operatorOnly: true,
    async handle(request) {
      const checked = await validatedBody(request, strictValidators.ApproveRequest, () => 'Expected { "ids": ["server:tool", ...] } or { "server": "<name>", "all_pending": true }');
      if (!checked.ok) return checked.reply;
      const value = checked.value;
      const state = runtime.current();
      const plan = value.ids !== undefined ? planByIds(state, value.ids) : planAllPending(state, value.server ?? '');
      if (!plan.ok) return plan.reply;
      for (const [server, tools] of plan.byServer) {
        const failed = await runRuntimeAction(() => runtime.approveTools(server, tools), plan.path);
        if (failed !== undefined) return failed;
      }
      return { status: 200, body: { tools: infos(runtime.current(), plan.byServer) } };
    },
  };

  const toggles = (['disable', 'enable'] as const).map(
    (action): RestEndpoint => ({
      method: 'POST',
      path: `/tools/{id}/${action}`,
      operatorOnly: true,
      async handle(request) {
        const id = request.params['id']!;
        const parsed = parseToolId(id);
        if (!parsed.ok) return apiError(404, 'not_found', `Not a tool id (expected server:tool): ${id}`, 'id');
        const failed = await runRuntimeAction(() => runtime.setToolDisabled(parsed.server, parsed.tool, action === 'disable'), 'id');
        if (failed !== undefined) return failed;
        return { status: 200, body: { tools: infos(runtime.current(), new Map([[parsed.server, [parsed.tool]]])) } };
      },
    }),
  );
  return [list, approve, ...toggles];
}

type ApprovalPlan = { ok: true; byServer: Map<string, string[]>; path: string } | { ok: false; reply: RestReply };

function planByIds(state: PublishedState, ids: readonly string[]): ApprovalPlan {
  const byServer = new Map<string, string[]>();
  for (const [i, id] of ids.entries()) {
    const parsed = parseToolId(id);
    if (!parsed.ok) return { ok: false, reply: apiError(400, 'invalid_body', `Not a tool id (expected server:tool): ${id}`, `/ids/${i}`) };
    const server = state.snapshot.servers.get(parsed.server);
    if (server === undefined) return { ok: false, reply: apiError(404, 'not_found', `No server named ${parsed.server} is configured`, `/ids/${i}`) };
    // Only what the upstream lists now can be approved: the approval pins the current hash.
    if (!server.tools.has(parsed.tool)) return { ok: false, reply: apiError(404, 'not_found', `Server ${parsed.server} does not list a tool ${parsed.tool}`, `/ids/${i}`) };
    const tools = byServer.get(parsed.server) ?? [];
    if (!tools.includes(parsed.tool)) tools.push(parsed.tool);
    byServer.set(parsed.server, tools);
  }
  return { ok: true, byServer, path: '/ids' };
}

function planAllPending(state: PublishedState, name: string): ApprovalPlan {
  const server = state.snapshot.servers.get(name);
  if (server === undefined) return { ok: false, reply: apiError(404, 'not_found', `No server named ${name} is configured`, '/server') };
  const pending = [...server.tools.keys()].filter((tool) => server.approvals.get(tool)?.status === 'pending');
  return { ok: true, byServer: new Map(pending.length === 0 ? [] : [[name, pending]]), path: '/server' };
}

function infos(state: PublishedState, byServer: ReadonlyMap<string, readonly string[]>): ToolInfo[] {
  const served = servedNames(state, OPERATOR.scope);
  const out: ToolInfo[] = [];
  for (const [name, tools] of byServer) {
    const server = state.snapshot.servers.get(name);
    if (server === undefined) continue;
    for (const tool of tools) out.push(toolInfo(state, server, tool, 'operator', served));
  }
  return out.sort(compareServed);
}
