import {
  aggregateVerdict,
  evaluate,
  evaluateHostTool,
  evaluateToolStates,
  prepareToolStates,
  toolIdKey,
  type Evaluation,
  type PreflightRequest,
  type PreparedSnapshot,
  type Scope,
  type ToolAnnotations,
  type ToolState,
} from '@mcpproxy/evaluator';
import type { ServerContext, Tool } from '@modelcontextprotocol/server';
import type { InBandSurface } from './in-band-outcome.js';
import { evaluatePinsLast, hasPins } from './pins-last.js';
import { memoisedRiderEvaluation } from './rider-memo.js';
import type { AvailabilitySource } from './tool-availability.js';

/** Every tool the server's own tools/list lists to the caller of this request (all pages). */
export type ListingReader = () => Promise<readonly Tool[]>;

/**
 * Where the in-band surfaces get their verdicts. The extension validates, caps and deduplicates the
 * request first; a source only evaluates it, at the agent tier. A source that cannot read its
 * state throws: the check then answers with no verdict, never a reduced one.
 */
export interface StateSource {
  evaluate(request: PreflightRequest, ctx: ServerContext, listing: ListingReader, surface: InBandSurface): Evaluation | Promise<Evaluation>;
  /** The tool tools/resolve resolves `name` to, as the caller's tools/list serves it; undefined when it is not served. */
  servedTool(name: string, ctx: ServerContext, listing: ListingReader): Tool | undefined | Promise<Tool | undefined>;
}

/** The state of a server that aggregates others and keeps an @mcpproxy/evaluator snapshot of them (the gateway). */
export interface GatewayState {
  /** The snapshot published now, and the scope of the caller of this request. */
  state(ctx: ServerContext): { readonly prepared: PreparedSnapshot; readonly scope: Scope };
  /** The served tool named `name` (a faster lookup than walking the listing); default: the listing's tool of that trimmed name. */
  servedTool?(name: string, ctx: ServerContext): Tool | undefined;
  /**
   * A tool the server serves itself beside the aggregated ones (the gateway's describe_tool): it
   * resolves like any served tool, and as nothing of the aggregated state stands between it and a
   * call, only the annotation policy decides its verdict (evaluateHostTool).
   */
  hostTool?(name: string, ctx: ServerContext): Tool | undefined;
}

/** A gateway: the evaluator over its snapshot, always at the agent tier whatever the session's credentials. */
export function gatewayStateSource(gateway: GatewayState): StateSource {
  return {
    evaluate: (request, ctx, _listing, surface) => {
      const host = surface === 'mcp-resolve' ? hostToolOf(gateway, request, ctx) : undefined;
      if (host !== undefined) {
        const annotations = host.annotations === undefined ? undefined : definedHints(host.annotations);
        const tools = request.tools.map((requested) => evaluateHostTool(requested.id, annotations, request.policy));
        return { verdict: aggregateVerdict(tools), tools };
      }
      const { prepared, scope } = gateway.state(ctx);
      const context = { tier: 'agent' as const, scope };
      // A pinned rider (experiment `pins`) compares its pins last; the memo keys on the pins too.
      const evaluated = () => (hasPins(request) ? evaluatePinsLast(prepared, request, context) : evaluate(prepared, request, context));
      return surface === 'mcp-rider' ? memoisedRiderEvaluation(prepared, scope, request, evaluated) : evaluated();
    },
    servedTool: async (name, ctx, listing) =>
      (gateway.servedTool === undefined ? await listedTool(name, listing) : gateway.servedTool(name, ctx)) ?? gateway.hostTool?.(name, ctx),
  };
}

/** The host's own tool a resolve names (a resolve names exactly one tool), if it is one. */
function hostToolOf(gateway: GatewayState, request: PreflightRequest, ctx: ServerContext): Tool | undefined {
  const [only] = request.tools;
  return only === undefined || gateway.hostTool === undefined ? undefined : gateway.hostTool(toolIdKey(only.id), ctx);
}

/** The annotations without keys whose value is undefined (exact optional types). */
function definedHints(annotations: NonNullable<Tool['annotations']>): ToolAnnotations {
  return Object.fromEntries(Object.entries(annotations).filter(([, value]) => value !== undefined)) as ToolAnnotations;
}

/**
 * A server that is not a gateway: its tools as its own tools/list lists them (names, annotations),
 * and why any is unavailable as its author says (listed or not).
 */
export function toolStateSource(availability: AvailabilitySource): StateSource {
  return {
    async evaluate(request, ctx, listing) {
      const tools = await listing();
      const said = await availability.read(request.tools.map((tool) => toolIdKey(tool.id)), ctx);
      const states: ToolState[] = tools.map((tool) => listedState(tool, said));
      const listed = new Set(states.map((state) => toolIdKey(state.name)));
      for (const [name, unavailable] of said) {
        if (!listed.has(name) && unavailable !== undefined) states.push({ name, listed: false, unavailable });
      }
      return evaluateToolStates(prepareToolStates(states), request);
    },
    servedTool: (name, _ctx, listing) => listedTool(name, listing),
  };
}

function listedState(tool: Tool, said: ReadonlyMap<string, ToolState['unavailable']>): ToolState {
  const unavailable = said.get(toolIdKey(tool.name));
  const annotations = tool.annotations as ToolAnnotations | undefined;
  return {
    name: tool.name,
    listed: true,
    ...(annotations === undefined ? {} : { annotations }),
    ...(unavailable === undefined ? {} : { unavailable }),
  };
}

async function listedTool(name: string, listing: ListingReader): Promise<Tool | undefined> {
  const key = toolIdKey(name);
  return (await listing()).find((tool) => toolIdKey(tool.name) === key);
}
