import { EXTENSION_ID } from '@mcpproxy/schema';
import type { CarriageClient, CarriageRequestOptions, RiderRoute } from './carriage-client.js';
import { advertisementOf, mirrorDeclared } from './legacy-capabilities.js';

/**
 * The parts of the MCP TypeScript SDK 1.x `Client` the carriages use (LangChain's MCP adapters and
 * the OpenAI Agents SDK run on it). Written out rather than imported, so that this package does
 * not depend on SDK 1.x: the runtime brings its own copy.
 */
export interface Sdk1Client {
  getServerCapabilities(): object | undefined;
  listTools(params?: { _meta?: { [key: string]: unknown } }, options?: { timeout?: number; signal?: AbortSignal }): Promise<object>;
  callTool(params: { name: string; arguments?: { [key: string]: unknown } }, resultSchema?: undefined, options?: { timeout?: number; signal?: AbortSignal }): Promise<object>;
}

/** How the runtime calls a tool, when it has its own path for it (the OpenAI Agents SDK does). */
export type ToolCaller = (name: string, args: Record<string, unknown>, options: CarriageRequestOptions) => Promise<unknown>;

/**
 * An SDK 1.x session as a carriage client. SDK 1.x speaks 2025-11-25 and earlier only, where the
 * rider needs the extension mirrored in the `experimental` capabilities at initialize: a session
 * whose client declared none (the runtimes build theirs without) gets `notMirrored` as the reason
 * the rider is skipped.
 */
export function sdk1CarriageClient(client: Sdk1Client, notMirrored: string, callTool?: ToolCaller): CarriageClient {
  const request = (options: CarriageRequestOptions) => ({ timeout: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  // SDK 1.x keeps the client's own capabilities in a private field: read because nothing public says.
  const declared = mirrorDeclared((client as unknown as { _capabilities?: unknown })._capabilities);
  const rider: RiderRoute =
    declared === false
      ? { ok: false, why: notMirrored }
      : { ok: true, send: async (riderValue, options) => (await client.listTools({ _meta: { [EXTENSION_ID]: riderValue } }, request(options))) as Record<string, unknown> };
  return {
    advertisement: advertisementOf(client.getServerCapabilities(), 'the session has not initialized (no server capabilities yet)'),
    rider,
    callTool: callTool ?? ((name, args, options) => client.callTool({ name, arguments: args }, undefined, request(options))),
  };
}
