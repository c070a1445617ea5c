import type { ToolResult } from '@mcpproxy/evaluator';
import {
  CHECK_REASON_CODES,
  RESOLVE_REASON_CODES,
  REST_AGENT_REASON_CODES,
  RIDER_REASON_CODES,
  type CheckModeToolVerdict,
  type PinnedToolVerdict,
  type ResolveFacet,
  type ToolVerdict,
} from '@mcpproxy/schema';

const RIDER = new Set<string>(RIDER_REASON_CODES);
const CHECK = new Set<string>(CHECK_REASON_CODES);
const RESOLVE = new Set<string>(RESOLVE_REASON_CODES);
/** The `pins` experiment (docs/decisions/0003) answers what REST answers an agent: the rider's codes and hash_mismatch. */
const PINNED_RIDER = new Set<string>(REST_AGENT_REASON_CODES);

/** A result whose code the surface may not carry: the producer refuses to emit it (never a reworded or reduced verdict). */
export class OffSurfaceReason extends Error {
  constructor(
    readonly surface: 'rider' | 'check' | 'resolve',
    readonly reason: string,
  ) {
    super(`reason ${reason} may not appear on the ${surface} surface`);
  }
}

/**
 * The per-tool verdict of the Shape A facet: the evaluator's fields in their fixed order, never a
 * hash (the in-band tier discloses none). Only rider codes may pass.
 */
export function riderVerdict(result: ToolResult): ToolVerdict {
  return wireVerdict(result, RIDER, 'rider') as unknown as ToolVerdict;
}

/** The per-tool verdict answering a pinned rider (`pins` experiment): the rider's fields, hash_mismatch allowed, still never a hash. */
export function pinnedRiderVerdict(result: ToolResult): PinnedToolVerdict {
  return wireVerdict(result, PINNED_RIDER, 'rider') as unknown as PinnedToolVerdict;
}

/** The same per-tool verdict in describe_tool check mode. Only check-mode codes may pass. */
export function checkModeVerdict(result: ToolResult): CheckModeToolVerdict {
  return wireVerdict(result, CHECK, 'check') as unknown as CheckModeToolVerdict;
}

/**
 * The Shape B facet of one resolved tool: the shared verdict fields without `id` (the tool names
 * itself) and without did_you_mean (an unknown tool is -32602, never a facet).
 */
export function resolveFacet(result: ToolResult): ResolveFacet {
  if (result.status === 'ready') return { status: 'ready' };
  return { status: 'unavailable', ...failureFields(result, RESOLVE, 'resolve') } as ResolveFacet;
}

function wireVerdict(result: ToolResult, allowed: ReadonlySet<string>, surface: 'rider' | 'check'): Record<string, unknown> {
  if (result.status === 'ready') return { id: result.id, status: 'ready' };
  return {
    id: result.id,
    status: 'unavailable',
    ...failureFields(result, allowed, surface),
    ...(result.did_you_mean === undefined ? {} : { did_you_mean: result.did_you_mean }),
  };
}

/** The fields every carrier shares for an unavailable tool, in the registry's order. */
function failureFields(result: ToolResult, allowed: ReadonlySet<string>, surface: OffSurfaceReason['surface']): Record<string, unknown> {
  const reason = result.reason ?? '';
  if (!allowed.has(reason)) throw new OffSurfaceReason(surface, reason);
  return {
    reason,
    retryable: result.retryable,
    ...(result.action === undefined ? {} : { action: result.action }),
    ...(result.detail === undefined ? {} : { detail: result.detail }),
    ...(result.remediation === undefined ? {} : { remediation: result.remediation }),
  };
}
