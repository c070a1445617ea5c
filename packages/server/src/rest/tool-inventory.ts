import { classifyTool, resolveScope, type Scope, type Tier } from '@mcpproxy/evaluator';
import type { ToolInfo } from '@mcpproxy/schema';
import { compareServed } from '../mcp/served-listing.js';
import type { PublishedState, RuntimeServerSnapshot } from '../state/gateway-runtime.js';
import { servedNames } from './served-set.js';

/**
 * Every known tool of the servers in scope: listed by its upstream, or remembered by an approval
 * record (pending, changed and blocked tools are not served, but they are known). Hashes only at
 * the operator tier. Ordered by server, then tool.
 */
export function toolInventory(state: PublishedState, scope: Scope, tier: Tier, onlyServer?: string): ToolInfo[] {
  const served = servedNames(state, scope);
  const tools: ToolInfo[] = [];
  for (const name of resolveScope(state.snapshot, scope)) {
    if (onlyServer !== undefined && name !== onlyServer) continue;
    const server = state.snapshot.servers.get(name)!;
    for (const tool of knownTools(server)) tools.push(toolInfo(state, server, tool, tier, served));
  }
  return tools.sort(compareServed);
}

export function toolInfo(state: PublishedState, server: RuntimeServerSnapshot, tool: string, tier: Tier, served: ReadonlySet<string>): ToolInfo {
  const id = `${server.name}:${tool}`;
  const indexed = server.tools.get(tool);
  const approval = server.approvals.get(tool);
  const hash = indexed?.hash ?? approval?.current_hash;
  return {
    id,
    server: server.name,
    tool,
    ...(approval === undefined ? {} : { approval: approval.status }),
    indexed: indexed !== undefined,
    served: served.has(id),
    user_disabled: approval?.user_disabled ?? false,
    // Gate 6 is the classifier's first check, so this is exactly "the config denies it".
    config_denied: classifyTool(server, tool, state.snapshot.tool_quarantine) === 'tool_denied_by_config',
    ...(tier === 'operator' && hash !== undefined ? { hash } : {}),
    ...(tier === 'operator' && approval?.approved_hash !== undefined ? { approved_hash: approval.approved_hash } : {}),
  };
}

export function knownTools(server: RuntimeServerSnapshot): string[] {
  return [...new Set([...server.tools.keys(), ...server.approvals.keys()])];
}
