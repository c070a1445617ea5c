import type { ToolResult } from '@mcpproxy/evaluator';
import type { ValidationIssue, Verdict } from '@mcpproxy/schema';
import type { ListToolsResult, ServerContext, Tool } from '@modelcontextprotocol/server';

/** The in-band surfaces of the extension (the activity record's `surface`). */
export type InBandSurface = 'mcp-rider' | 'mcp-check' | 'mcp-resolve';

/** One in-band check as the extension hands it to the source: the surface and the caller's raw request. */
export interface InBandCheck {
  readonly surface: InBandSurface;
  /**
   * mcp-rider: the rider (`params._meta["app.mcpproxy/required-tools"]`) as sent;
   * mcp-check: describe_tool's arguments as sent; mcp-resolve: `{ name, policy? }`.
   */
  readonly raw: unknown;
}

/** A verdict the source computed at the agent tier: one result per unique ID, in order of first occurrence. */
export interface InBandVerdict {
  readonly verdict: Verdict;
  /** ISO 8601: when the state the verdict describes was read. */
  readonly checked_at: string;
  /** The correlation id of the activity record written for this verdict. */
  readonly request_id: string;
  readonly tools: readonly ToolResult[];
}

/** Why the source computed no verdict. `request`: the caller's fault (-32602); `unavailable`: the state's (-32603). */
export interface InBandFailure {
  readonly kind: 'request' | 'unavailable';
  readonly code: string;
  readonly message: string;
  /** JSON pointer into the raw request ('' = the whole request). */
  readonly path: string;
  readonly issues?: readonly ValidationIssue[];
  readonly count?: number;
  readonly max?: number;
}

export type InBandOutcome = { readonly ok: true; readonly result: InBandVerdict } | { readonly ok: false; readonly error: InBandFailure };

/**
 * What a server gives the extension: its state, seen from the caller of the request at hand.
 * The gateway's source reads its published snapshot through the preflight seam; any other server
 * built on the SDK can implement these three methods over its own state.
 */
export interface RequiredToolsSource {
  /** The core tools/list page for these params: exactly what the server lists without a rider. */
  listTools(params: { readonly cursor?: string }, ctx: ServerContext): ListToolsResult | Promise<ListToolsResult>;
  /** The tool named `name` as tools/list serves it to this caller, or undefined when it is not served. */
  servedTool(name: string, ctx: ServerContext): Tool | undefined | Promise<Tool | undefined>;
  /**
   * Validates and evaluates one check at the agent tier, writes its activity record, and answers
   * with the verdict (never a reduced one: a state that cannot be read is `unavailable`).
   */
  evaluate(check: InBandCheck, ctx: ServerContext): Promise<InBandOutcome>;
}
