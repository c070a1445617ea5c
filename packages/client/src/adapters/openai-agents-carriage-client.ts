import type { CarriageClient, CarriageRequestOptions } from '../carriage-client.js';
import { sdk1CarriageClient, type Sdk1Client } from '../sdk1-carriage-client.js';

/**
 * The parts of an OpenAI Agents SDK MCP server (`MCPServerStreamableHttp`, `MCPServerStdio`,
 * `MCPServerSSE` of `@openai/agents` 0.14) the carriages use, written out so this package needs
 * no Agents SDK to build or to load.
 */
export interface OpenAiAgentsMcpServer {
  readonly name: string;
  callToolResult?(toolName: string, args: Record<string, unknown> | null, meta?: Record<string, unknown> | null, options?: { signal?: AbortSignal }): Promise<object>;
  callTool(toolName: string, args: Record<string, unknown> | null, meta?: Record<string, unknown> | null, options?: { signal?: AbortSignal }): Promise<unknown>;
}

const NOT_MIRRORED = 'the OpenAI Agents SDK creates its MCP client without client capabilities, so this 2025-11-25 session cannot mirror the extension at initialize';

/**
 * The Agents SDK's MCP servers hold an SDK 1.x Client (`underlying.session`, not public) created
 * without capabilities: the rider is never negotiated, check mode is the in-band carriage. Tools
 * are called through the server's own public `callToolResult`, the path its agent runs use; the
 * session is read only for what the server advertised, and when it cannot be reached (another
 * version, not connected) that is unknown and check mode is not used.
 */
export function openAiAgentsCarriageClient(server: OpenAiAgentsMcpServer): CarriageClient {
  const callTool = (name: string, args: Record<string, unknown>, options: CarriageRequestOptions): Promise<unknown> => {
    // The server's own timeout bounds its calls; ours joins the caller's signal.
    const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), ...(options.signal === undefined ? [] : [options.signal])]);
    if (server.callToolResult !== undefined) return server.callToolResult(name, args, null, { signal });
    // Older servers give only the content: a tool error then reads as text that is not a verdict.
    return server.callTool(name, args, null, { signal }).then((content) => ({ content }));
  };
  const session = (server as unknown as { underlying?: { session?: unknown } }).underlying?.session;
  if (!isSdk1Client(session)) {
    return {
      advertisement: { state: 'unknown', why: `the OpenAI Agents MCP server ${JSON.stringify(server.name)} has no session to read what the server advertised (connect() it first)` },
      rider: { ok: false, why: NOT_MIRRORED },
      callTool,
    };
  }
  return sdk1CarriageClient(session, NOT_MIRRORED, callTool);
}

function isSdk1Client(value: unknown): value is Sdk1Client {
  if (typeof value !== 'object' || value === null) return false;
  const client = value as Partial<Record<keyof Sdk1Client, unknown>>;
  return typeof client.getServerCapabilities === 'function' && typeof client.listTools === 'function' && typeof client.callTool === 'function';
}
