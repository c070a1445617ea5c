import type { ServerSnapshot } from './snapshot.js';

export type ToolGate = 'tool_denied_by_config' | 'tool_blocked_by_user' | 'tool_changed' | 'tool_pending_approval';

/**
 * Gates 6-9 for one tool of a configured server, in precedence order. Call dispatch uses this
 * same function, so a call is refused exactly when the preflight names one of these gates.
 */
export function classifyTool(server: ServerSnapshot, tool: string, toolQuarantine: boolean): ToolGate | undefined {
  const allowList = server.enabled_tools;
  if ((allowList.length > 0 && !allowList.includes(tool)) || server.disabled_tools.includes(tool)) {
    return 'tool_denied_by_config';
  }
  const approval = server.approvals.get(tool);
  if (approval === undefined) return undefined;
  if (approval.user_disabled) return 'tool_blocked_by_user';
  // The rug-pull guard and the approval queue only exist while tool quarantine is on and the
  // server is not trusted to change its tools freely.
  if (toolQuarantine && !server.auto_approve_tool_changes) {
    if (approval.status === 'changed') return 'tool_changed';
    if (approval.status === 'pending') return 'tool_pending_approval';
  }
  return undefined;
}
