import type { ApprovalRecord, ToolAnnotations } from '@mcpproxy/evaluator';
import type { ResolvedServerConfig } from '../config/gateway-config.js';
import type { InvalidTool, ListedTool } from '../upstream/list-upstream-tools.js';
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
const invalidCache = new WeakMap<readonly InvalidTool[], ReadonlyMap<string, string>>();

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
    invalid_tools: invalidByName(status.invalid_tools),
    listing_problems: status.invalid_tools,
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

/** The named entries the upstream lists but the gateway does not serve: name -> why (once per listing). */
function invalidByName(invalid: readonly InvalidTool[]): ReadonlyMap<string, string> {
  const cached = invalidCache.get(invalid);
  if (cached !== undefined) return cached;
  const byName = new Map<string, string>();
  for (const entry of invalid) if (entry.name !== undefined && !byName.has(entry.name)) byName.set(entry.name, entry.reason);
  invalidCache.set(invalid, byName);
  return byName;
}

/** The annotations as listed, minus keys whose value is undefined (exact optional types). */
function definedAnnotations(annotations: Readonly<Record<string, unknown>> | undefined): ToolAnnotations | undefined {
  if (annotations === undefined) return undefined;
  return Object.fromEntries(Object.entries(annotations).filter(([, value]) => value !== undefined)) as ToolAnnotations;
}
