import { reasonTreatment, VERDICTS, worstVerdict, type Verdict } from '@mcpproxy/schema';
import type { ToolResult } from './preflight-result.js';

/** A per-tool verdict as the lenient validators accept it (any well-formed code). */
export interface WireToolVerdict {
  readonly id: string;
  readonly status: 'ready' | 'unavailable';
  readonly reason?: string;
  readonly retryable?: boolean;
  readonly action?: string;
  readonly detail?: string;
  readonly remediation?: string;
  readonly did_you_mean?: readonly string[];
}

/** The consumer's view of one result: registry treatment for known codes, permanent/blocked for unknown ones. */
export function treatTool(wire: WireToolVerdict): ToolResult {
  if (wire.status === 'ready') return { id: wire.id, status: 'ready' };
  const reason = wire.reason ?? '';
  const treatment = reasonTreatment(reason);
  return {
    id: wire.id,
    status: 'unavailable',
    reason,
    retryable: treatment.known ? treatment.retryable : false,
    class: treatment.class,
    known: treatment.known,
    ...(wire.action === undefined ? {} : { action: wire.action }),
    ...(wire.detail === undefined ? {} : { detail: wire.detail }),
    ...(wire.remediation === undefined ? {} : { remediation: wire.remediation }),
    ...(wire.did_you_mean === undefined ? {} : { did_you_mean: wire.did_you_mean }),
  };
}

/** The verdict a tool result implies on its own. */
export function toolVerdict(tool: ToolResult): Verdict {
  return tool.status === 'ready' ? 'ready' : reasonTreatment(tool.reason).verdict;
}

/**
 * The set verdict: the worst of what the server said and what the per-tool results imply, so a
 * server that says "ready" next to an unavailable tool (or a verdict this client does not know)
 * never reads as ready.
 */
export function setVerdict(answered: unknown, tools: readonly ToolResult[]): Verdict {
  const known = (VERDICTS as readonly unknown[]).includes(answered) ? (answered as Verdict) : 'blocked';
  return worstVerdict([known, ...tools.map(toolVerdict)]);
}
