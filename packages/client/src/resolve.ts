import { checkValue, EXTENSION_ID, lenientValidators, reasonTreatment, worstVerdict, type Policy, type Verdict } from '@mcpproxy/schema';
import type { Client } from '@modelcontextprotocol/client';
import { extensionSupport } from './extension-support.js';
import type { UnavailableTool } from './preflight-result.js';
import { ANY_RESULT } from './any-result-schema.js';
import { jsonRpcCode } from './json-rpc-code.js';
import { messageOf } from './message-of.js';
import { requestMeta } from './request-meta.js';
import { treatTool, type WireToolVerdict } from './tool-treatment.js';

export const TOOLS_RESOLVE = 'tools/resolve';

/** The Shape B facet as this client treats it (unknown codes: permanent, non-retryable, blocked). */
export type ResolvedAvailability = { readonly status: 'ready' } | Omit<UnavailableTool, 'id' | 'did_you_mean'>;

export interface ResolvedTool {
  readonly name: string;
  /** The resolved tool as the server returned it. */
  readonly tool: Record<string, unknown>;
  /** Absent when the server resolved the tool but carried no availability facet. */
  readonly availability?: ResolvedAvailability;
}

export type ResolveErrorCode = 'unknown_tool' | 'resolve_failed' | 'invalid_answer';

export class ResolveError extends Error {
  override readonly name = 'ResolveError';
  constructor(
    readonly code: ResolveErrorCode,
    message: string,
    /** The JSON-RPC error code, when the server answered with one. */
    readonly rpcCode?: number,
  ) {
    super(message);
  }
}

export interface ResolveOptions {
  /** The annotation policy, sent in the request's extension `_meta` (so missing_annotation and policy_filtered can apply). */
  readonly policy?: Policy;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * SEP-1862 tools/resolve with the availability facet (Shape B): `{ name, arguments }` -> the served
 * tool, its facet read from `tool._meta["app.mcpproxy/required-tools"]` (or, under the newer draft's
 * tool-resolution extension, the result's `_meta`). An unknown or unserved tool is a ResolveError
 * with code `unknown_tool` (-32602): non-existence stays an error, never a facet.
 */
export async function resolve(client: Client, name: string, args: Record<string, unknown> = {}, options: ResolveOptions = {}): Promise<ResolvedTool> {
  const support = extensionSupport(client);
  const own = options.policy === undefined ? {} : { [EXTENSION_ID]: { policy: options.policy } };
  const meta = support.advertised ? requestMeta(client, support, own) : own;
  let result: Record<string, unknown>;
  try {
    result = await client.request(
      { method: TOOLS_RESOLVE, params: { name, arguments: args, ...(Object.keys(meta).length === 0 ? {} : { _meta: meta }) } },
      ANY_RESULT,
      { timeout: options.timeoutMs ?? 10_000, ...(options.signal === undefined ? {} : { signal: options.signal }) },
    );
  } catch (error) {
    const code = jsonRpcCode(error);
    if (code === -32602) throw new ResolveError('unknown_tool', `tools/resolve ${name}: ${messageOf(error)}`, code);
    throw new ResolveError('resolve_failed', `tools/resolve ${name} failed: ${messageOf(error)}`, code);
  }
  const tool = result['tool'];
  if (typeof tool !== 'object' || tool === null) throw new ResolveError('invalid_answer', `tools/resolve ${name}: the answer has no tool`);
  const facet = metaEntry(tool) ?? metaEntry(result);
  if (facet === undefined) return { name, tool: tool as Record<string, unknown> };
  const checked = checkValue(lenientValidators.ResolveFacet, facet);
  if (!checked.ok) throw new ResolveError('invalid_answer', `tools/resolve ${name}: invalid facet: ${checked.issues.map((i) => `${i.path || '/'} ${i.message}`).join('; ')}`);
  return { name, tool: tool as Record<string, unknown>, availability: treatFacet(checked.value) };
}

/**
 * Shape B leaves the set verdict to the client: the worst class present wins. A tool resolved
 * without a facet counts as unknown, so it can never make the set read ready.
 */
export function aggregateResolved(resolved: readonly ResolvedTool[]): Verdict {
  return worstVerdict(
    resolved.map((entry) => {
      if (entry.availability === undefined) return 'blocked';
      return entry.availability.status === 'ready' ? 'ready' : reasonTreatment(entry.availability.reason).verdict;
    }),
  );
}

function treatFacet(facet: Omit<WireToolVerdict, 'id'>): ResolvedAvailability {
  // The per-tool treatment of a preflight result, without the id the resolved tool does not carry.
  const { id: _id, ...treated } = treatTool({ ...facet, id: '' });
  return treated;
}

function metaEntry(holder: object): unknown {
  const meta = (holder as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[EXTENSION_ID] : undefined;
}
