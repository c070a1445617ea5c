import { checkPolicy } from './check-policy.js';
import { policyCause } from './policy-cause.js';
import type { Policy } from './request.js';
import type { ToolResult } from './result.js';
import type { ToolAnnotations } from './snapshot.js';
import { unavailableResult } from './unavailable-result.js';

/**
 * The verdict on a tool the host serves itself rather than an upstream (the gateway's built-in
 * describe_tool): no server, connection or approval stands between it and a call, so only the
 * annotation policy can exclude it, with the same reasons and wording as for an upstream tool.
 */
export function evaluateHostTool(id: string, annotations: ToolAnnotations | undefined, policy: Policy | undefined): ToolResult {
  const exclusion = checkPolicy(annotations, policy);
  if (exclusion === undefined) return { id, status: 'ready' };
  return unavailableResult(id, policyCause(exclusion, { id, server: '', tool: id }));
}
