import type { Action, ReasonCode, Verdict } from '@mcpproxy/schema';

/**
 * One verdict per requested ID. Keys are always created in this order (id, status, reason,
 * retryable, action, detail, remediation, did_you_mean, hash) so serialised output is byte-stable.
 */
export interface ToolResult {
  id: string;
  status: 'ready' | 'unavailable';
  reason?: ReasonCode;
  retryable?: boolean;
  action?: Action;
  detail?: string;
  remediation?: string;
  did_you_mean?: string[];
  /** Operator tier, ready results only. */
  hash?: string;
}

export interface Evaluation {
  verdict: Verdict;
  tools: ToolResult[];
}
