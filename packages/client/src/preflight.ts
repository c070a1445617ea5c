import type { Client } from '@modelcontextprotocol/client';
import type { PreflightOptions, PreflightResult } from './preflight-result.js';
import { preflightThrough } from './preflight-through.js';
import { sdkCarriageClient } from './sdk-carriage-client.js';

/**
 * Asks the MCP TypeScript SDK's Client whether the required tools can be used right now: the
 * rider, then describe_tool check mode (only on a server that advertised the extension), then REST
 * (`options.rest`). See preflightThrough for the rules; the runtime adapters
 * (`@mcpproxy/client/ai-sdk`, `/openai-agents`, `/langchain`) apply the same ones to their clients.
 */
export function preflight(client: Client, ids: readonly string[], options: PreflightOptions = {}): Promise<PreflightResult> {
  return preflightThrough(sdkCarriageClient(client), ids, options);
}
