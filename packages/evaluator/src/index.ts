// @mcpproxy/evaluator: the one pure preflight evaluator every surface calls.
export type {
  ApprovalRecord,
  ConnectionState,
  GatewaySnapshot,
  IndexedTool,
  Saturation,
  ServerConnection,
  ServerSnapshot,
  ToolAnnotations,
} from './snapshot.js';
export type { EvaluationContext, Policy, PreflightRequest, RequestedTool, Scope, Tier } from './request.js';
export type { Evaluation, ToolResult } from './result.js';
export { prepareSnapshot, type PreparedSnapshot } from './prepare-snapshot.js';
export type { SuggestionIndex } from './suggestion-index.js';
export { evaluate } from './evaluate.js';
export { evaluateToolStates, prepareToolStates, type PreparedToolStates, type ToolState, type ToolUnavailability } from './tool-states.js';
export { parseToolId, toolIdKey, type ParsedToolId } from './parse-tool-id.js';
export { dedupeToolIds } from './dedupe-tool-ids.js';
export { classifyTool, type ToolGate } from './classify-tool.js';
export { checkPolicy, type PolicyExclusion, type PolicyRule } from './check-policy.js';
export { evaluateHostTool } from './host-tool.js';
export { aggregateVerdict } from './aggregate-verdict.js';
export { isServerInScope, resolveScope } from './resolve-scope.js';
export { suggest } from './suggest.js';
export { connectionGate, type ConnectionGate } from './connection-gate.js';
export { LAST_ERROR_LIMIT } from './connection-cause.js';
