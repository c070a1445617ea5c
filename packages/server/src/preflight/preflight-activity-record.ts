import type { ToolResult } from '@mcpproxy/evaluator';
import type { PreflightActivityRecord, Surface, Verdict } from '@mcpproxy/schema';
import { deepFreeze } from '../json/frozen-json.js';

export interface PreflightActivityFacts {
  readonly surface: Surface;
  readonly request_id: string;
  /** ISO 8601, the verdict's checked_at. */
  readonly timestamp: string;
  readonly verdict: Verdict;
  /** One result per unique ID. */
  readonly tools: readonly ToolResult[];
  /** mcp-check only: the describe_tool arguments as the caller sent them. */
  readonly arguments?: Readonly<Record<string, unknown>>;
}

/**
 * The activity record of one evaluated preflight (section 10). It holds IDs, statuses and reason
 * codes only: never a description, call arguments, a detail text or a hash.
 */
export function preflightActivityRecord(facts: PreflightActivityFacts): PreflightActivityRecord {
  return {
    type: 'preflight',
    timestamp: facts.timestamp,
    status: facts.verdict === 'ready' ? 'success' : 'blocked',
    surface: facts.surface,
    request_id: facts.request_id,
    metadata:
      facts.surface === 'mcp-check'
        ? { ...metadataOf(facts), surface: 'mcp-check', arguments: { ...facts.arguments } }
        : Object.isFrozen(facts.tools)
          ? sharedMetadataOf(facts)
          : metadataOf(facts),
  };
}

type Metadata = PreflightActivityRecord['metadata'];

/**
 * One metadata object per shared tool list: a reused memoised evaluation (frozen from its first reuse)
 * hands the same list to every caller, so its records share one frozen object, which the store
 * serialises once (jsonOf). A request nobody repeats pays nothing for it.
 */
const shared = new WeakMap<readonly ToolResult[], Metadata>();

function sharedMetadataOf(facts: PreflightActivityFacts): Metadata {
  let metadata = shared.get(facts.tools);
  if (metadata === undefined) {
    metadata = deepFreeze(metadataOf(facts));
    shared.set(facts.tools, metadata);
  }
  return metadata;
}

function metadataOf(facts: PreflightActivityFacts): Metadata {
  const reasons: Record<string, number> = {};
  for (const tool of facts.tools) if (tool.reason !== undefined) reasons[tool.reason] = (reasons[tool.reason] ?? 0) + 1;
  return {
    verdict: facts.verdict,
    ids_count: facts.tools.length,
    reasons,
    per_tool: facts.tools.map((tool) => (tool.reason === undefined ? { id: tool.id, status: tool.status } : { id: tool.id, status: tool.status, reason: tool.reason })),
  };
}
