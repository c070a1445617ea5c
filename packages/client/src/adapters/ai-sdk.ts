// @mcpproxy/client/ai-sdk: gate a Vercel AI SDK run (generateText, streamText, an Agent) on the
// required-tools verdict, through the AI SDK's own MCP client (`@ai-sdk/mcp`), before any model call.
import { EXTENSION_ID } from '@mcpproxy/schema';
import { preflightThrough } from '../preflight-through.js';
import type { PreflightOptions, PreflightResult } from '../preflight-result.js';
import { EXTENSION_MIRROR } from '../required-tools-capabilities.js';
import { requireReady, type RequireToolsOptions } from '../require-tools.js';
import { aiSdkCarriageClient, type AiSdkMcpClient } from './ai-sdk-carriage-client.js';

export type { AiSdkMcpClient } from './ai-sdk-carriage-client.js';
export { PreflightError, RequiredToolsUnavailableError, type PreflightErrorCode } from '../preflight-error.js';
export type { Carriage, CarriageAttempt, PreflightOptions, PreflightResult, ReadyTool, RestCarriageOptions, ToolResult, UnavailableTool } from '../preflight-result.js';
export type { RequireToolsClock, RequireToolsOptions } from '../require-tools.js';

/**
 * The `capabilities` for `createMCPClient`: the extension's mirror in `experimental`, which the
 * client declares at initialize (2025-11-25), so the rider is negotiated. `base` is kept.
 */
export function requiredToolsCapabilities<T extends { experimental?: { [key: string]: unknown } }>(base?: T): T & { experimental: { [key: string]: unknown } } {
  const own = (base ?? {}) as T;
  return { ...own, experimental: { ...own.experimental, [EXTENSION_ID]: { ...EXTENSION_MIRROR } } };
}

/** The verdict through the AI SDK's MCP client: the rider, else check mode, else REST (`options.rest`). */
export function preflight(mcp: AiSdkMcpClient, ids: readonly string[], options: PreflightOptions = {}): Promise<PreflightResult> {
  return preflightThrough(aiSdkCarriageClient(mcp), ids, options);
}

/**
 * Call before the run: resolves with the ready result, or throws RequiredToolsUnavailableError
 * naming each unavailable tool, its reason and remediation (no model call has been made).
 */
export function requireTools(mcp: AiSdkMcpClient, ids: readonly string[], options: RequireToolsOptions = {}): Promise<PreflightResult> {
  return requireReady(() => preflight(mcp, ids, options), options);
}
