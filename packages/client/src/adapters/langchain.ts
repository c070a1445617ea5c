// @mcpproxy/client/langchain: gate a LangChain / LangGraph agent run on the required-tools verdict,
// through the MultiServerMCPClient (`@langchain/mcp-adapters`) that gives the agent its tools,
// before any model call.
import { preflightThrough } from '../preflight-through.js';
import type { PreflightOptions, PreflightResult } from '../preflight-result.js';
import { requireReady, type RequireToolsOptions } from '../require-tools.js';
import { langChainCarriageClient, type LangChainMcpClient } from './langchain-carriage-client.js';

export type { LangChainMcpClient } from './langchain-carriage-client.js';
export type { Sdk1Client } from '../sdk1-carriage-client.js';
export { PreflightError, RequiredToolsUnavailableError, type PreflightErrorCode } from '../preflight-error.js';
export type { Carriage, CarriageAttempt, PreflightOptions, PreflightResult, ReadyTool, RestCarriageOptions, ToolResult, UnavailableTool } from '../preflight-result.js';
export type { RequireToolsClock, RequireToolsOptions } from '../require-tools.js';

/**
 * The verdict through the MultiServerMCPClient's connection to `server` (the gateway's name in its
 * `mcpServers`): check mode (LangChain's clients cannot negotiate the rider), else REST (`options.rest`).
 */
export async function preflight(mcp: LangChainMcpClient, server: string, ids: readonly string[], options: PreflightOptions = {}): Promise<PreflightResult> {
  return preflightThrough(await langChainCarriageClient(mcp, server), ids, options);
}

/**
 * Call before building or invoking the agent: resolves with the ready result, or throws
 * RequiredToolsUnavailableError naming each unavailable tool, its reason and remediation.
 */
export function requireTools(mcp: LangChainMcpClient, server: string, ids: readonly string[], options: RequireToolsOptions = {}): Promise<PreflightResult> {
  return requireReady(() => preflight(mcp, server, ids, options), options);
}
