import { EXTENSION_ID } from '@mcpproxy/schema';
import type { CarriageClient, CarriageRequestOptions } from '../carriage-client.js';
import { advertisementOf, mirrorDeclared } from '../legacy-capabilities.js';

/**
 * The parts of the Vercel AI SDK's MCP client (`createMCPClient` of `@ai-sdk/mcp` 1.x) the
 * carriages use, written out so this package needs no AI SDK to build or to load.
 */
export interface AiSdkMcpClient {
  listTools(options?: { params?: { _meta?: { [key: string]: unknown } }; options?: { signal?: AbortSignal; timeout?: number } }): Promise<object>;
  toolsFromDefinitions(definitions: { tools: { name: string; inputSchema: { type: 'object'; [key: string]: unknown } }[] }): object;
}

/**
 * `@ai-sdk/mcp` speaks 2025-11-25 (and earlier): the rider works when `createMCPClient` was given
 * `capabilities: requiredToolsCapabilities()`, which it sends at initialize. Its public interface
 * says neither what the server advertised nor what the client declared; both are read from the
 * client's fields (`serverCapabilities`, `clientCapabilities`), and when they are missing the
 * rider is the probe and check mode is not used.
 */
export function aiSdkCarriageClient(mcp: AiSdkMcpClient): CarriageClient {
  const fields = mcp as unknown as { serverCapabilities?: unknown; clientCapabilities?: unknown };
  const declared = mirrorDeclared(fields.clientCapabilities);
  return {
    advertisement: advertisementOf(fields.serverCapabilities, 'this @ai-sdk/mcp client does not show what the server advertised'),
    rider:
      declared === false
        ? { ok: false, why: `this session did not declare ${EXTENSION_ID} at initialize (pass capabilities: requiredToolsCapabilities() to createMCPClient)` }
        : {
            ok: true,
            send: async (rider, options) =>
              (await mcp.listTools({ params: { _meta: { [EXTENSION_ID]: rider } }, options: { timeout: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) } })) as Record<string, unknown>,
          },
    callTool: (name, args, options) => callThroughToolSet(mcp, name, args, options),
  };
}

/**
 * A tools/call through the client's public surface: a one-tool set made from a definition (no
 * listing), whose `execute` returns the raw CallToolResult. The AI SDK bounds a call only by an
 * abort signal, so the timeout joins the caller's signal.
 */
async function callThroughToolSet(mcp: AiSdkMcpClient, name: string, args: Record<string, unknown>, options: CarriageRequestOptions): Promise<unknown> {
  const set = mcp.toolsFromDefinitions({ tools: [{ name, inputSchema: { type: 'object' } }] }) as Record<string, { execute?: unknown } | undefined>;
  const execute = Object.hasOwn(set, name) ? set[name]?.execute : undefined;
  if (typeof execute !== 'function') throw new Error(`@ai-sdk/mcp made no executable tool for ${name}`);
  const abortSignal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), ...(options.signal === undefined ? [] : [options.signal])]);
  return (execute as (input: unknown, context: unknown) => Promise<unknown>)(args, { toolCallId: `mcpproxy-preflight-${name}`, messages: [], abortSignal });
}
