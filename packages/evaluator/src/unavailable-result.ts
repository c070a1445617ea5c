import { REASONS, type Action, type ReasonCode, type ReasonEntry } from '@mcpproxy/schema';
import { fillWording, type WordingValues } from './fill-wording.js';
import type { ToolResult } from './result.js';

export interface UnavailableCause {
  readonly code: ReasonCode;
  readonly values: WordingValues;
  /** A named wording variant of the code; falls back to the default wording when the registry has none. */
  readonly variant?: string;
  /** Replaces the registry's default action (server_unhealthy's diagnostic action). */
  readonly action?: Action;
}

/** Everything but the ID comes from the registry entry of the code. */
export function unavailableResult(id: string, cause: UnavailableCause, didYouMean?: readonly string[]): ToolResult {
  const entry: ReasonEntry = REASONS[cause.code];
  const variant = cause.variant === undefined ? undefined : entry.wording.variants?.[cause.variant];
  const result: ToolResult = { id, status: 'unavailable', reason: cause.code, retryable: entry.retryable };
  const action = cause.action ?? entry.action;
  if (action !== undefined) result.action = action;
  result.detail = fillWording(variant?.detail ?? entry.wording.detail, cause.values);
  result.remediation = fillWording(variant?.remediation ?? entry.wording.remediation, cause.values);
  if (didYouMean !== undefined && didYouMean.length > 0) result.did_you_mean = [...didYouMean];
  return result;
}
