import { parseToolId, type Scope } from '@mcpproxy/evaluator';
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode, type CallToolResult, type Implementation, type Server, type ServerContext, type Tool } from '@modelcontextprotocol/server';
import { RequiredToolsExtension, type ActivitySink, type ExtensionExperiment } from '@mcpproxy/extension';
import { EXTENSION_ID } from '@mcpproxy/schema';
import { PlainParamsServer } from './plain-params-server.js';
import type { ToolCallRecorder } from '../activity/tool-call-activity.js';
import type { GatewayRuntime } from '../state/gateway-runtime.js';
import { RuntimeError } from '../state/runtime-error.js';
import { argumentDepthError } from './argument-depth.js';
import { attachCatalog } from './catalog-surface.js';
import { forwardAskingClient, isInputRetry, type ClientInput } from './client-input.js';
import type { InputFlows } from './input-flows.js';
import { gateToolCall, refusalText } from './dispatch-gate.js';
import { STORE_UNREACHABLE_REFUSAL } from './store-unreachable-refusal.js';
import {
  DESCRIBE_TOOL,
  DESCRIBE_TOOL_NAME,
  describeServedTools,
  describeToolError,
  findServed,
  parseDescribeToolArguments,
} from './describe-tool.js';
import type { McpSessionContext } from './mcp-identity.js';
import { servedListing, type ServedListing } from './served-listing.js';
import type { ResourceSubscriptions } from './resource-subscriptions.js';
import { toolListPage } from './tool-list-page.js';
import { modernListingAnswer, type ModernListingAnswer } from './prepared-modern-listing.js';

/** The part of the runtime the MCP surface reads: the published state, and the one way to reach an upstream. */
export type SurfaceRuntime = Pick<GatewayRuntime, 'current' | 'callTool' | 'forwardRequest' | 'upstreamCapabilities'>;

export interface GatewayMcpOptions {
  readonly runtime: SurfaceRuntime;
  readonly pageSize: number;
  readonly serverInfo: Implementation;
  /**
   * Where the activity records of in-band checks go (the store): serves the app.mcpproxy/required-tools
   * extension (the tools/list rider, tools/resolve, describe_tool check mode) at the agent tier, over
   * the published state REST reads too. Absent: core tools/list only, and check mode is refused with
   * no verdict.
   */
  readonly inBandActivity?: ActivitySink;
  /**
   * The extension's prototypes (docs/decisions/) this gateway serves to clients that ask for them by
   * name (config extension_experiments). Absent or empty: none, for every client.
   */
  readonly extensionExperiments?: readonly ExtensionExperiment[];
  /** Records each dispatched call in the activity log (server, tool, outcome, duration; never arguments). */
  readonly recordToolCall?: ToolCallRecorder;
  /** Who is subscribed to which upstream resource, shared by every server instance. Absent: tools only. */
  readonly resourceSubscriptions?: ResourceSubscriptions;
  /**
   * 2026-07-28 requests waiting for their client's input (sampling, elicitation, roots an upstream
   * asked for), shared by every server instance. Absent: such upstream requests are refused on 2026-07-28.
   */
  readonly inputFlows?: InputFlows;
  /**
   * False while the store (a shared PostgreSQL) cannot be reached: this gateway may have missed an
   * operator's change on another replica, so tool calls, resource reads and prompt gets are refused.
   * Absent: always reachable.
   */
  readonly storeReachable?: () => boolean;
  /** What a tools/list waits for before it reads the state (the start-up wait of stdio sessions); undefined: nothing. */
  readonly beforeListing?: () => Promise<void> | undefined;
}

const BUILTIN_TOOLS: readonly Tool[] = [DESCRIBE_TOOL];

/** The listing a session with this scope sees (built-ins included), as tools/list pages it. */
export function gatewayListing(state: ReturnType<SurfaceRuntime['current']>, scope: Scope): ServedListing {
  return servedListing(state, scope, BUILTIN_TOOLS);
}

const INSTRUCTIONS =
  'An MCP gateway: tools of several upstream servers, named "server:tool". Call describe_tool for full definitions. ' +
  'A refused call names its reason code and what to do about it.';

/**
 * One server instance of the aggregated surface (per 2026-07-28 request, per 2025-11-25 session, per
 * stdio connection). The low-level Server gives raw control of tools/list results. Listing and
 * dispatch read the runtime's current published state; only an allowed tools/call reaches an upstream.
 */
export function createGatewayMcpServer(options: GatewayMcpOptions, context: McpSessionContext): Server {
  const { runtime, pageSize } = options;
  const scope = context.identity.scope;
  const server = new PlainParamsServer(options.serverInfo, { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS });

  const page = (cursor: string | undefined) => toolListPage(gatewayListing(runtime.current(), scope), cursor, pageSize);
  const listTools = (cursor: string | undefined) => {
    const wait = options.beforeListing?.();
    return wait === undefined ? page(cursor) : wait.then(() => page(cursor));
  };
  const requiredTools = inBandExtension(options, scope);
  requiredTools?.attach(server, { era: context.era });
  server.setRequestHandler('tools/list', (request) => listTools(request.params?.cursor));
  // Resources, prompts, completion and logging of the upstreams, beside their tools.
  if (options.resourceSubscriptions !== undefined) {
    attachCatalog(
      server,
      {
        runtime,
        subscriptions: options.resourceSubscriptions,
        ...(options.inputFlows === undefined ? {} : { inputFlows: options.inputFlows }),
        ...(options.storeReachable === undefined ? {} : { storeReachable: options.storeReachable }),
      },
      context,
    );
  }

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name } = request.params;
    const args = request.params.arguments;
    const tooDeep = argumentDepthError(args);
    if (tooDeep !== undefined) throw tooDeep;
    if (name === DESCRIBE_TOOL_NAME) return describeTool(args, ctx);
    const started = performance.now();
    const record = async (outcome: 'success' | 'tool_error' | 'upstream_error' | 'refused', reason?: string) => {
      const parsed = parseToolId(name);
      const where = parsed.ok ? { server: parsed.server, tool: parsed.tool } : { server: '', tool: name };
      await options.recordToolCall?.({ ...where, outcome, ...(reason === undefined ? {} : { reason }), duration_ms: performance.now() - started });
    };
    const input: ClientInput = { server, ctx, era: context.era, identityKey: context.identity.key, ...(options.inputFlows === undefined ? {} : { flows: options.inputFlows }) };
    // A 2026-07-28 retry brings input for a call already gated and running upstream.
    let target: { readonly server: string; readonly tool: string };
    if (isInputRetry(input)) {
      const parsed = parseToolId(name);
      if (!parsed.ok) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', { reason: 'invalid_request_state' });
      target = parsed;
    } else {
      if (options.storeReachable?.() === false) {
        await record('refused');
        return { isError: true, content: [{ type: 'text', text: STORE_UNREACHABLE_REFUSAL }] };
      }
      const decision = gateToolCall(runtime.current(), scope, name);
      if (!decision.allowed) {
        await record('refused', decision.refusal.reason);
        return { isError: true, content: [{ type: 'text', text: refusalText(decision.refusal) }] };
      }
      target = decision;
    }
    const forward = forwardAskingClient(input, `tools/call\n${name}`, (signal, relay) => runtime.callTool(target.server, target.tool, args, signal, relay));
    try {
      // The upstream's answer is the answer, tool errors (isError) included.
      const result = await forward();
      // The client must answer the upstream's requests first (2026-07-28); the call goes on upstream.
      if (isInputRequiredResult(result)) return result;
      await record(result.isError === true ? 'tool_error' : 'success');
      return result as CallToolResult;
    } catch (error) {
      await record('upstream_error');
      // The call that found the upstream overloaded reads like the calls refused after it.
      if (error instanceof RuntimeError && error.code === 'server_saturated') {
        const now = gateToolCall(runtime.current(), scope, name);
        if (!now.allowed) return { isError: true, content: [{ type: 'text', text: refusalText(now.refusal) }] };
      }
      // A JSON-RPC error from the upstream is relayed as that error; anything else (no live
      // connection, timeout, broken transport) is a tool error the agent can read.
      const upstreamError = error instanceof RuntimeError ? error.cause : error;
      if (upstreamError instanceof ProtocolError) throw upstreamError;
      return upstreamFailure(target.server, error);
    }
  });

  async function describeTool(args: Record<string, unknown> | undefined, ctx: ServerContext): Promise<CallToolResult> {
    const parsed = parseDescribeToolArguments(args);
    switch (parsed.mode) {
      case 'invalid':
        return describeToolError(parsed.message);
      case 'check':
        if (requiredTools === undefined) return describeToolError('check mode is not available on this gateway; no verdict was computed');
        return requiredTools.checkMode(server, parsed.args, ctx);
      case 'plain':
        return describeServedTools(parsed.toolIds, gatewayListing(runtime.current(), scope));
    }
  }

  return server;
}

/**
 * The gateway as one user of the extension: its rider rides on the gateway's listing (whose pages
 * are prepared bytes; the facet is spliced in), and every in-band verdict is the evaluator's over the
 * published snapshot at the agent tier with the caller's scope. Undefined without an activity sink.
 */
function inBandExtension(options: GatewayMcpOptions, scope: Scope): RequiredToolsExtension | undefined {
  const { runtime, inBandActivity } = options;
  if (inBandActivity === undefined) return undefined;
  return new RequiredToolsExtension({
    gateway: {
      state: () => ({ prepared: runtime.current().prepared, scope }),
      servedTool: (name) => findServed(gatewayListing(runtime.current(), scope), name)?.definition,
      hostTool: (name) => BUILTIN_TOOLS.find((tool) => tool.name === name),
    },
    activity: inBandActivity,
    ...(options.extensionExperiments === undefined ? {} : { experiments: options.extensionExperiments }),
  });
}

/**
 * A 2026-07-28 tools/list of the first page, with or without a rider, answered without a server
 * instance per request (prepared-modern-listing.ts): the same page, and the same extension with the
 * caller's scope for a rider, as the instance createGatewayMcpServer builds would answer with.
 * Undefined where that instance does more than this: it waits before listing (stdio), or it serves
 * the extension's experiments (their opt-in is per request and per server).
 */
export function gatewayModernListing(options: GatewayMcpOptions): ModernListingAnswer | undefined {
  if (options.beforeListing !== undefined || (options.extensionExperiments?.length ?? 0) > 0) return undefined;
  const { runtime, pageSize } = options;
  return modernListingAnswer({
    serverInfo: options.serverInfo,
    listing: (identity, request) => {
      const listing = gatewayListing(runtime.current(), identity.scope);
      const first = toolListPage(listing, undefined, pageSize);
      const extension = Object.hasOwn(request.meta, EXTENSION_ID) ? inBandExtension(options, identity.scope) : undefined;
      if (extension === undefined) return first;
      // Every tool the caller is served: the whole listing the first page was cut from (no paging through it).
      return extension.modernListing(first, request, async () => listing.entries.map((entry) => entry.definition));
    },
  });
}

function upstreamFailure(server: string, error: unknown): CallToolResult {
  const code = error instanceof RuntimeError ? ` (${error.code})` : '';
  const message = error instanceof Error ? error.message : String(error);
  return { isError: true, content: [{ type: 'text', text: `Upstream server "${server}" did not answer${code}: ${message}` }] };
}
