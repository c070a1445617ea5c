import { toolIdKey, type ToolResult } from '@mcpproxy/evaluator';
import { checkValue, EXTENSION_ID, reasonTreatment, strictValidators, worstVerdict, type BatchResolveFacet, type ResolveFacet, type Verdict } from '@mcpproxy/schema';
import { ProtocolError, ProtocolErrorCode, type ServerContext, type Tool } from '@modelcontextprotocol/server';
import { inBandError } from './in-band-error.js';
import type { InBandOutcome } from './in-band-outcome.js';
import { freshRequestId } from './request-id.js';
import { ResolveParamsSchema, riderPolicy, TOOLS_RESOLVE_METHOD, unknownTool, unresolvable, type ResolveContext, type ResolveParams } from './tools-resolve.js';
import { OffSurfaceReason, resolveFacet } from './wire-verdict.js';

/** One entry of a batch answer: the served tool with its Shape B facet, or the error a single resolve of that name gives. */
export type BatchEntry = { readonly tool: Tool } | { readonly name: string; readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

export interface BatchResolveResult {
  readonly results: readonly BatchEntry[];
  readonly _meta: { readonly [EXTENSION_ID]: BatchResolveFacet };
  [key: string]: unknown;
}

/** tools/resolve params in the batch form: `batch` and no `name` (a single resolve always names its tool). */
export function isBatchShaped(params: unknown): params is { readonly batch: unknown } {
  return typeof params === 'object' && params !== null && Object.hasOwn(params, 'batch') && !Object.hasOwn(params, 'name');
}

/**
 * The params schema of tools/resolve on a server that enabled batch_resolve: batch-shaped params
 * reach the handler (which serves them only to a client that asked, see {@link refuseAsSingle});
 * every other params object is validated by ResolveParamsSchema exactly as without the experiment.
 */
type BatchAwareParams = ResolveParams | { readonly batch: unknown };
type Validated = { readonly value: BatchAwareParams; readonly issues?: undefined } | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> }> };

export const BatchAwareResolveParams = {
  '~standard': {
    version: 1 as const,
    vendor: 'mcpproxy',
    types: undefined as unknown as { readonly input: unknown; readonly output: BatchAwareParams },
    validate: (data: unknown): Validated | Promise<Validated> => (isBatchShaped(data) ? { value: data } : (ResolveParamsSchema['~standard'].validate(data) as Validated | Promise<Validated>)),
  },
};

/**
 * A batch-shaped request from a client that did not ask for batch_resolve: the error the SDK gives
 * when ResolveParamsSchema refuses params (`Invalid params for tools/resolve: <path>: <message>, ...`),
 * so a v1 mirror cannot tell that the server has the experiment.
 */
export async function refuseAsSingle(params: unknown): Promise<never> {
  const result = await ResolveParamsSchema['~standard'].validate(params);
  const issues = ('issues' in result ? result.issues : undefined) ?? [];
  const text = issues.map((issue) => (issue.path === undefined || issue.path.length === 0 ? issue.message : `${issue.path.map((p) => String(typeof p === 'object' ? p.key : p)).join('.')}: ${issue.message}`));
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${TOOLS_RESOLVE_METHOD}: ${text.join(', ')}`);
}

/**
 * The batch_resolve experiment (docs/decisions/0004-shape-b-batch.md): SEP-1862's resolve for 1-50
 * names in one exchange. Each entry is answered as a single tools/resolve of that name would be (a
 * name not served to the caller is the same -32602 error, as an entry), all served names in ONE
 * evaluation and one activity record (surface mcp-resolve), plus the set verdict a client would
 * otherwise aggregate itself: the worst class over the entries, an error entry counting as its reason's class (unknown_ids for a name not served).
 */
export async function resolveBatch(params: unknown, ctx: ServerContext, resolving: ResolveContext): Promise<BatchResolveResult> {
  const names = batchNames(params);
  const policy = riderPolicy(ctx);
  const served = await Promise.all(names.map((name) => resolving.servedTool(name)));
  const servedNames = names.filter((_, i) => served[i] !== undefined);
  let byKey = new Map<string, ToolResult>();
  let stamp = { checked_at: new Date().toISOString(), request_id: freshRequestId() };
  if (servedNames.length > 0) {
    // Nothing is evaluated (and nothing recorded) when no name is served, as for a single resolve of an unknown tool.
    const outcome: InBandOutcome = await resolving.check({ names: servedNames, ...policy });
    if (!outcome.ok) throw inBandError(outcome.error, 'resolve');
    byKey = new Map(outcome.result.tools.map((result) => [toolIdKey(result.id), result]));
    stamp = { checked_at: outcome.result.checked_at, request_id: outcome.result.request_id };
  }
  const results = names.map((name, i): BatchEntry => {
    const tool = served[i];
    const result = tool === undefined ? undefined : byKey.get(toolIdKey(name));
    if (tool === undefined || result === undefined) return errorEntry(name);
    let facet: ResolveFacet;
    try {
      facet = resolveFacet(result);
    } catch (error) {
      // A code Shape B cannot carry: the same -32602 a single resolve gives, naming the reason.
      if (error instanceof OffSurfaceReason) return errorEntry(name, unresolvable(name, error.reason));
      throw error;
    }
    return { tool: { ...tool, _meta: { ...tool._meta, [EXTENSION_ID]: facet } } };
  });
  return { results, _meta: { [EXTENSION_ID]: { verdict: worstVerdict(results.map(entryVerdict)), ...stamp } } };
}

function batchNames(params: unknown): string[] {
  const checked = checkValue(strictValidators.BatchResolveParams, params);
  if (!checked.ok) {
    const first = checked.issues[0];
    throw inBandError({ kind: 'request', code: 'invalid_request', message: `invalid batch: ${first?.path ?? ''} ${first?.message ?? ''}`.trim(), path: first?.path ?? '', issues: checked.issues }, 'resolve');
  }
  return checked.value.batch.map((entry) => entry.name);
}

function errorEntry(name: string, error: ProtocolError = unknownTool(name)): BatchEntry {
  return { name, error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) } };
}

function entryVerdict(entry: BatchEntry): Verdict {
  if (!Object.hasOwn(entry, 'tool')) {
    // A served tool the facet cannot carry names its reason; an unserved name is unknown.
    const data = (entry as { error: { data?: unknown } }).error.data;
    const reason = typeof data === 'object' && data !== null && Object.hasOwn(data, 'reason') ? (data as { reason: unknown }).reason : undefined;
    return typeof reason === 'string' ? reasonTreatment(reason).verdict : 'unknown_ids';
  }
  const facet = (entry as { tool: Tool }).tool._meta?.[EXTENSION_ID] as ResolveFacet;
  return facet.status === 'ready' ? 'ready' : reasonTreatment(facet.reason ?? '').verdict;
}
