import { EXTENSION_ID, type ResolveFacet } from '@mcpproxy/schema';
import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext, type Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { inBandError, internalInBandError } from './in-band-error.js';
import { clientDeclaration, isDeclared, isModernRequest, isNegotiated } from './negotiation.js';
import type { InBandOutcome } from './in-band-outcome.js';
import { OffSurfaceReason, resolveFacet } from './wire-verdict.js';

export const TOOLS_RESOLVE_METHOD = 'tools/resolve';
/** The newer SEP-1862 draft: resolution as an extension, other extensions' data under the result's `_meta`. */
export const TOOL_RESOLUTION_EXTENSION_ID = 'io.modelcontextprotocol/tool-resolution';

/** SEP-1862's request: the tool's name and the arguments it would be called with. */
export const ResolveParamsSchema = z.object({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
});
export type ResolveParams = z.infer<typeof ResolveParamsSchema>;

/** Both answers: the seed's (facet on the resolved tool's `_meta`) and the newer draft's (facet on the result's `_meta`). */
export interface ResolveResult {
  readonly tool: Tool;
  readonly _meta?: Readonly<Record<string, unknown>>;
  [key: string]: unknown;
}

/** What resolving needs from the server the request came to. */
export interface ResolveContext {
  /** The tool tools/list serves under `name` to this caller, or undefined. */
  servedTool(name: string): Tool | undefined | Promise<Tool | undefined>;
  /** Runs the mcp-resolve check of `{ name, policy? }`. */
  check(raw: unknown): Promise<InBandOutcome>;
}

/**
 * tools/resolve, Shape B. Resolves against the caller's served listing: an unknown or unserved
 * name is -32602 (SEP-1862), so only the codes that can hold for a served tool ever ride the
 * facet. The annotation policy comes from `_meta["app.mcpproxy/required-tools"].policy` when the
 * extension is negotiated on this request; on 2026-07-28 a request that does not negotiate it gets no
 * facet (and no evaluation). Side-effect free but for the activity record.
 * `arguments` do not refine availability and are not looked at.
 */
export async function resolveTool(server: Server, params: ResolveParams, ctx: ServerContext, resolving: ResolveContext): Promise<ResolveResult> {
  const negotiated = isNegotiated(clientDeclaration(server, ctx, EXTENSION_ID));
  const policy = negotiated ? riderPolicy(ctx) : undefined;

  const tool = await resolving.servedTool(params.name);
  if (tool === undefined) throw unknownTool(params.name);
  // 2026-07-28's mismatch rule: a client that did not declare the extension on this request gets core
  // behaviour, the resolved tool and nothing of ours (2025-11-25 keeps the seed's envelope as written).
  if (isModernRequest(ctx) && !negotiated) return { tool };
  const outcome = await resolving.check({ name: params.name, ...policy });
  if (!outcome.ok) throw inBandError(outcome.error, 'resolve');
  const result = outcome.result.tools[0];
  if (result === undefined) throw internalInBandError('the evaluation returned no result for the resolved tool');
  let facet: ResolveFacet;
  try {
    facet = resolveFacet(result);
  } catch (error) {
    // A code Shape B cannot carry: the tool is not servable now (a gateway stopped serving it
    // between the two reads; a plain server lists it but says it is blocked).
    if (error instanceof OffSurfaceReason) throw unresolvable(params.name, error.reason);
    throw error;
  }

  if (isDeclared(clientDeclaration(server, ctx, TOOL_RESOLUTION_EXTENSION_ID))) {
    return { tool, ...(negotiated ? { _meta: { [EXTENSION_ID]: facet } } : {}) };
  }
  return { tool: { ...tool, _meta: { ...tool._meta, [EXTENSION_ID]: facet } } };
}

/** `{ policy }` of a negotiated rider on tools/resolve (the request names its one tool itself); anything else is -32602. */
export function riderPolicy(ctx: ServerContext): { policy: unknown } | undefined {
  const meta = ctx.mcpReq._meta as Readonly<Record<string, unknown>> | undefined;
  if (meta === undefined || !Object.hasOwn(meta, EXTENSION_ID)) return undefined;
  const rider = meta[EXTENSION_ID];
  const fault = (path: string, rule: string, message: string) =>
    inBandError({ kind: 'request', code: 'invalid_request', message, path, issues: [{ path, rule, message }] }, 'resolve');
  if (typeof rider !== 'object' || rider === null || Array.isArray(rider)) throw fault('', 'type', 'must be object');
  const extra = Object.keys(rider).find((key) => key !== 'policy');
  if (extra !== undefined) throw fault(`/${extra}`, 'additionalProperties', 'must NOT have additional properties');
  return 'policy' in rider ? { policy: (rider as { policy: unknown }).policy } : undefined;
}

export function unknownTool(name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name} (not served to this caller)`, { extension: EXTENSION_ID, name });
}

/** -32602 like an unknown tool (the facet cannot say it), naming the reason the rider would give. */
export function unresolvable(name: string, reason: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} cannot be resolved: it is unavailable (${reason}), which the tools/resolve facet does not carry; ask the tools/list rider`, {
    extension: EXTENSION_ID,
    name,
    reason,
  });
}
