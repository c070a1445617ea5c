import { evaluate, parseToolId, type Scope, type ToolResult } from '@mcpproxy/evaluator';
import type { PublishedState } from '../state/gateway-runtime.js';

export type DispatchDecision =
  | { readonly allowed: true; readonly server: string; readonly tool: string }
  | { readonly allowed: false; readonly refusal: ToolResult };

/**
 * Whether a tools/call on `id` may reach its upstream. This is the evaluator's own verdict for that
 * one ID at the agent tier (no policy, no pin): a call is refused exactly when a preflight of the
 * same tool says it is not ready, for the same reason and with the same wording, so dispatch and
 * preflight cannot drift apart. Out-of-scope and unconfigured servers read as not_found.
 */
export function gateToolCall(state: PublishedState, scope: Scope, id: string): DispatchDecision {
  const evaluation = evaluate(state.prepared, { tools: [{ id }] }, { tier: 'agent', scope });
  const result = evaluation.tools[0];
  if (result === undefined) throw new Error('evaluator returned no result for a one-ID request');
  if (result.status !== 'ready') return { allowed: false, refusal: result };
  const parsed = parseToolId(id);
  if (!parsed.ok) throw new Error(`evaluator called a malformed tool id ready: ${id}`);
  return { allowed: true, server: parsed.server, tool: parsed.tool };
}

/** The text of a refused call: the reason code first (machine-greppable), then the registry's wording. */
export function refusalText(refusal: ToolResult): string {
  const lines = [`Tool call refused: ${refusal.reason ?? 'unavailable'}${refusal.retryable === true ? ' (retryable)' : ''}`];
  if (refusal.detail !== undefined) lines.push(refusal.detail);
  if (refusal.remediation !== undefined) lines.push(`Remediation: ${refusal.remediation}`);
  if (refusal.did_you_mean !== undefined && refusal.did_you_mean.length > 0) lines.push(`Did you mean: ${refusal.did_you_mean.join(', ')}`);
  return lines.join('\n');
}
