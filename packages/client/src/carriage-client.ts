import type { RequestRider } from '@mcpproxy/schema';

/** Per carriage request: the caller's signal and a bound in ms. */
export interface CarriageRequestOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs: number;
}

/**
 * What the server advertised under app.mcpproxy/required-tools, as far as the runtime's client
 * lets us see: `unknown` (with why) when it keeps the server's capabilities out of reach.
 */
export type Advertisement =
  | { readonly state: 'advertised'; readonly version?: unknown }
  | { readonly state: 'absent' }
  | { readonly state: 'unknown'; readonly why: string };

/**
 * How a tools/list carrying the rider goes out on this session, or why it cannot: a session
 * that did not mirror the extension at initialize (2025-11-25) never gets a facet back.
 */
export type RiderRoute =
  | {
      readonly ok: true;
      /** tools/list with the rider in `params._meta` (plus what the revision needs to negotiate it); the raw result. */
      readonly send: (rider: RequestRider, options: CarriageRequestOptions) => Promise<Record<string, unknown>>;
    }
  | { readonly ok: false; readonly why: string };

/**
 * What the carriages need from an MCP client, whichever runtime owns it: the SDK's Client, the
 * Vercel AI SDK's, the OpenAI Agents SDK's MCP servers, LangChain's MultiServerMCPClient. Each
 * runtime gets one of these; the carriage order and the fallback rules are the same for all.
 */
export interface CarriageClient {
  readonly advertisement: Advertisement;
  readonly rider: RiderRoute;
  /** tools/call; the raw CallToolResult (check mode reads its text content). */
  callTool(name: string, args: Record<string, unknown>, options: CarriageRequestOptions): Promise<unknown>;
}
