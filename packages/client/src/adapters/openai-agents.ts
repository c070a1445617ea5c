// @mcpproxy/client/openai-agents: gate an OpenAI Agents SDK run (`run(agent, input)`) on the
// required-tools verdict, through the agent's own MCP server object, before any model call.
import { preflightThrough } from '../preflight-through.js';
import type { PreflightOptions, PreflightResult } from '../preflight-result.js';
import { requireReady, type RequireToolsOptions } from '../require-tools.js';
import { openAiAgentsCarriageClient, type OpenAiAgentsMcpServer } from './openai-agents-carriage-client.js';

export type { OpenAiAgentsMcpServer } from './openai-agents-carriage-client.js';
export { PreflightError, RequiredToolsUnavailableError, type PreflightErrorCode } from '../preflight-error.js';
export type { Carriage, CarriageAttempt, PreflightOptions, PreflightResult, ReadyTool, RestCarriageOptions, ToolResult, UnavailableTool } from '../preflight-result.js';
export type { RequireToolsClock, RequireToolsOptions } from '../require-tools.js';

/**
 * The verdict through a connected Agents SDK MCP server: check mode (its client cannot negotiate
 * the rider), else REST (`options.rest`).
 */
export function preflight(server: OpenAiAgentsMcpServer, ids: readonly string[], options: PreflightOptions = {}): Promise<PreflightResult> {
  return preflightThrough(openAiAgentsCarriageClient(server), ids, options);
}

/**
 * Call after `server.connect()` and before `run(agent, ...)`: resolves with the ready result, or
 * throws RequiredToolsUnavailableError naming each unavailable tool, its reason and remediation.
 */
export function requireTools(server: OpenAiAgentsMcpServer, ids: readonly string[], options: RequireToolsOptions = {}): Promise<PreflightResult> {
  return requireReady(() => preflight(server, ids, options), options);
}
