// Terse builders for hand-written snapshots: a ready, enabled, unquarantined server unless told otherwise.
import type {
  ApprovalRecord,
  GatewaySnapshot,
  IndexedTool,
  ServerConnection,
  ServerSnapshot,
  ToolAnnotations,
} from '../src/index.js';

export const hashOf = (digit: string, version = 1): string => `sha256/v${version}:${digit.repeat(64)}`;

export function tool(name: string, annotations?: ToolAnnotations, hash = hashOf('a')): IndexedTool {
  return annotations === undefined ? { name, hash } : { name, hash, annotations };
}

export function approval(name: string, fields: Partial<Omit<ApprovalRecord, 'tool'>> = {}): ApprovalRecord {
  return { tool: name, status: 'approved', hash_schema_version: 1, user_disabled: false, ...fields };
}

export interface ServerFields {
  readonly enabled?: boolean;
  readonly quarantined?: boolean;
  readonly connection?: Partial<ServerConnection>;
  readonly tools?: readonly IndexedTool[];
  readonly approvals?: readonly ApprovalRecord[];
  /** Listed with an unservable definition: name -> why. */
  readonly invalid_tools?: Readonly<Record<string, string>>;
  readonly enabled_tools?: readonly string[];
  readonly disabled_tools?: readonly string[];
  readonly auto_approve_tool_changes?: boolean;
  /** No connection state yet (the default is 'ready'). */
  readonly stateless?: boolean;
}

export function server(name: string, fields: ServerFields = {}): ServerSnapshot {
  return {
    name,
    enabled: fields.enabled ?? true,
    quarantined: fields.quarantined ?? false,
    connection: fields.stateless === true ? { ever_ready: false, ...fields.connection } : { state: 'ready', ever_ready: true, ...fields.connection },
    tools: new Map((fields.tools ?? []).map((indexed) => [indexed.name, indexed])),
    approvals: new Map((fields.approvals ?? []).map((record) => [record.tool, record])),
    ...(fields.invalid_tools === undefined ? {} : { invalid_tools: new Map(Object.entries(fields.invalid_tools)) }),
    enabled_tools: fields.enabled_tools ?? [],
    disabled_tools: fields.disabled_tools ?? [],
    auto_approve_tool_changes: fields.auto_approve_tool_changes ?? false,
  };
}

export function gateway(
  servers: readonly ServerSnapshot[],
  fields: { tool_quarantine?: boolean; profiles?: Record<string, readonly string[]> } = {},
): GatewaySnapshot {
  return {
    version: 1,
    tool_quarantine: fields.tool_quarantine ?? true,
    servers: new Map(servers.map((entry) => [entry.name, entry])),
    profiles: new Map(Object.entries(fields.profiles ?? {})),
  };
}
