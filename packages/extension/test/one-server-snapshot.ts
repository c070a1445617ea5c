// The state most of these tests start from: a gateway whose one upstream is ready, every tool
// indexed with one hash, each approved unless a test marks it pending review.
import type { ApprovalRecord, GatewaySnapshot, IndexedTool } from '@mcpproxy/evaluator';

export interface SnapshotTool {
  readonly name: string;
  readonly annotations?: IndexedTool['annotations'];
  readonly status?: 'approved' | 'pending';
}

export function oneServerSnapshot(server: string, hash: string, tools: readonly SnapshotTool[]): GatewaySnapshot {
  return {
    version: 1,
    tool_quarantine: true,
    profiles: new Map(),
    servers: new Map([
      [
        server,
        {
          name: server,
          enabled: true,
          quarantined: false,
          connection: { state: 'ready', ever_ready: true },
          tools: new Map(tools.map(({ name, annotations }) => [name, { name, hash, ...(annotations === undefined ? {} : { annotations }) }])),
          approvals: new Map(
            tools.map(({ name, status = 'approved' }): [string, ApprovalRecord] => [
              name,
              { tool: name, status, ...(status === 'approved' ? { approved_hash: hash } : {}), current_hash: hash, hash_schema_version: 1, user_disabled: false },
            ]),
          ),
          enabled_tools: [],
          disabled_tools: [],
          auto_approve_tool_changes: false,
        },
      ],
    ]),
  };
}
