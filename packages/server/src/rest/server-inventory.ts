import { classifyTool, resolveScope, type Scope } from '@mcpproxy/evaluator';
import type { ServerInfo, ServerToolCounts } from '@mcpproxy/schema';
import { compareCodeUnits } from '../mcp/served-listing.js';
import type { PublishedState, RuntimeServerSnapshot } from '../state/gateway-runtime.js';
import { servedNames } from './served-set.js';
import { knownTools } from './tool-inventory.js';

/** The configured servers in scope, by name: flags, connection state, last error and tool counts. */
export function serverInventory(state: PublishedState, scope: Scope): ServerInfo[] {
  const served = servedNames(state, scope);
  return [...resolveScope(state.snapshot, scope)]
    .sort(compareCodeUnits)
    .map((name) => serverInfo(state, state.snapshot.servers.get(name)!, served));
}

export function serverInfo(state: PublishedState, server: RuntimeServerSnapshot, served: ReadonlySet<string>): ServerInfo {
  const { connection } = server;
  return {
    name: server.name,
    transport: server.transport,
    enabled: server.enabled,
    quarantined: server.quarantined,
    ...(connection.state === undefined ? {} : { state: connection.state }),
    ever_ready: connection.ever_ready,
    ...(connection.last_error === undefined ? {} : { last_error: connection.last_error }),
    ...(connection.diagnostic_action === undefined ? {} : { diagnostic_action: connection.diagnostic_action }),
    tools: toolCounts(state, server, served),
    ...(server.listing_problems === undefined || server.listing_problems.length === 0 ? {} : { invalid_tools: server.listing_problems.map((entry) => ({ ...entry })) }),
  };
}

function toolCounts(state: PublishedState, server: RuntimeServerSnapshot, served: ReadonlySet<string>): ServerToolCounts {
  const counts = { indexed: server.tools.size, served: 0, approved: 0, pending: 0, changed: 0, user_disabled: 0, config_denied: 0 };
  for (const tool of knownTools(server)) {
    if (served.has(`${server.name}:${tool}`)) counts.served += 1;
    const approval = server.approvals.get(tool);
    if (approval !== undefined) {
      counts[approval.status] += 1;
      if (approval.user_disabled) counts.user_disabled += 1;
    }
    if (classifyTool(server, tool, state.snapshot.tool_quarantine) === 'tool_denied_by_config') counts.config_denied += 1;
  }
  return counts;
}
