import type { ToolResult } from '@mcpproxy/evaluator';
import type { PreflightActivityRecord, Surface, Verdict } from '@mcpproxy/schema';

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

export type PreflightActivityMetadata = PreflightActivityRecord['metadata'];

/**
 * The activity record of one evaluated preflight (the same for every surface). It holds IDs,
 * statuses and reason codes only: never a description, call arguments, a detail text or a hash.
 * `metadata` is the facts' own unless the caller has an equal one to share (the gateway's REST
 * surface hands a memoised evaluation's records one frozen object).
 */
export function preflightActivityRecord(facts: PreflightActivityFacts, metadata: PreflightActivityMetadata = activityMetadata(facts)): PreflightActivityRecord {
  return {
    type: 'preflight',
    timestamp: facts.timestamp,
    status: facts.verdict === 'ready' ? 'success' : 'blocked',
    surface: facts.surface,
    request_id: facts.request_id,
    metadata,
  };
}

/** The record's metadata: the verdict, the unique IDs, a count per reason, each tool's status; check mode adds its raw arguments. */
export function activityMetadata(facts: PreflightActivityFacts): PreflightActivityMetadata {
  const reasons: Record<string, number> = {};
  for (const tool of facts.tools) if (tool.reason !== undefined) reasons[tool.reason] = (reasons[tool.reason] ?? 0) + 1;
  const metadata: PreflightActivityMetadata = {
    verdict: facts.verdict,
    ids_count: facts.tools.length,
    reasons,
    per_tool: facts.tools.map((tool) => (tool.reason === undefined ? { id: tool.id, status: tool.status } : { id: tool.id, status: tool.status, reason: tool.reason })),
  };
  return facts.surface === 'mcp-check' ? { ...metadata, surface: 'mcp-check', arguments: { ...facts.arguments } } : metadata;
}
