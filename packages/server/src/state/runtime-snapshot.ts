import type { ApprovalRecord, ToolAnnotations } from '@mcpproxy/evaluator';
import type { ResolvedServerConfig } from '../config/gateway-config.js';
import type { ListedTool } from '../upstream/list-upstream-tools.js';
import type { UpstreamStatus } from '../upstream/upstream-connection.js';
import type { RuntimeServerConnection, RuntimeServerSnapshot, ServedTool } from './gateway-runtime.js';

/** Everything the runtime knows about one server at one moment. */
export interface ServerState {
  readonly config: ResolvedServerConfig;
  readonly enabled: boolean;
  readonly quarantined: boolean;
  readonly status: UpstreamStatus;
  readonly approvals: ReadonlyMap<string, ApprovalRecord>;
}

const servedToolsCache = new WeakMap<ReadonlyMap<string, ListedTool>, ReadonlyMap<string, ServedTool>>();

/**
 * The immutable view of one server. The served-tool map is built once per tool listing (the
 * upstream's index object), so publishing a state change never copies thousands of tools.
 */
export function serverSnapshot(state: ServerState): RuntimeServerSnapshot {
  const { config, status } = state;
  const connection: RuntimeServerConnection = {
    ever_ready: status.ever_ready,
    ...(status.state === undefined ? {} : { state: status.state }),
    ...(status.last_error === undefined ? {} : { last_error: status.last_error }),
    ...(status.diagnostic_action === undefined ? {} : { diagnostic_action: status.diagnostic_action }),
    ...(status.www_authenticate === undefined ? {} : { www_authenticate: status.www_authenticate }),
    ...(status.saturation === undefined ? {} : { saturation: status.saturation }),
  };
  return Object.freeze({
    name: config.name,
    enabled: state.enabled,
    quarantined: state.quarantined,
    connection: Object.freeze(connection),
    tools: servedTools(status.tools),
    approvals: state.approvals,
    enabled_tools: config.enabled_tools,
    disabled_tools: config.disabled_tools,
    auto_approve_tool_changes: config.auto_approve_tool_changes,
    transport: config.url === undefined ? 'stdio' : 'http',
  });
}

function servedTools(listed: ReadonlyMap<string, ListedTool>): ReadonlyMap<string, ServedTool> {
  const cached = servedToolsCache.get(listed);
  if (cached !== undefined) return cached;
  const served = new Map<string, ServedTool>();
  for (const [name, tool] of listed) {
    const annotations = definedAnnotations(tool.definition.annotations);
    served.set(
      name,
      Object.freeze({ name, hash: tool.hash, definition: tool.definition, ...(annotations === undefined ? {} : { annotations }) }),
    );
  }
  servedToolsCache.set(listed, served);
  return served;
}

/** The annotations as listed, minus keys whose value is undefined (exact optional types). */
function definedAnnotations(annotations: Readonly<Record<string, unknown>> | undefined): ToolAnnotations | undefined {
  if (annotations === undefined) return undefined;
  return Object.fromEntries(Object.entries(annotations).filter(([, value]) => value !== undefined)) as ToolAnnotations;
}
