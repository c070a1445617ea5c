import type { Evaluation, PreflightRequest, PreparedSnapshot, Scope } from '@mcpproxy/evaluator';
import { deepFreeze } from './deep-freeze.js';

/** Longer keys are evaluated each time: a padded rider would otherwise pin its text in memory. */
export const RIDER_MEMO_MAX_KEY_LENGTH = 64 * 1024;
/** Distinct riders kept per snapshot; past it, new riders are evaluated each time. */
export const RIDER_MEMO_MAX_ENTRIES = 256;

/**
 * The evaluations of riders on one published snapshot, by scope and request: an agent harness sends
 * the same rider before every job, and each costs what validating it costs, not a new evaluation.
 * Kept per snapshot object, so a new snapshot (any change of state) starts empty and the old
 * entries go with it; shared by every server instance of one gateway, as they share its snapshots.
 * A shared evaluation is frozen: every answer and record reads the same tools.
 */
const bySnapshot = new WeakMap<PreparedSnapshot, Map<string, Evaluation>>();

export function memoisedRiderEvaluation(prepared: PreparedSnapshot, scope: Scope, request: PreflightRequest, evaluate: () => Evaluation): Evaluation {
  const key = memoKey(JSON.stringify(scope), request);
  if (key.length > RIDER_MEMO_MAX_KEY_LENGTH) return evaluate();
  let entries = bySnapshot.get(prepared);
  if (entries === undefined) {
    entries = new Map();
    bySnapshot.set(prepared, entries);
  }
  const known = entries.get(key);
  if (known !== undefined) return known;
  const evaluation = evaluate();
  if (entries.size < RIDER_MEMO_MAX_ENTRIES) entries.set(key, deepFreeze(evaluation));
  return evaluation;
}

/**
 * The key of a frozen request (a repeated rider's, rider-request-memo.ts) for the last scope it was
 * asked from is made once and kept: the same string each time, whose hash V8 keeps with it, where
 * a key put together again (a copy of the request's text, ~2.5 KB for 50 IDs) was hashed again on
 * every lookup.
 */
const frozenKeys = new WeakMap<PreflightRequest, { readonly scope: string; readonly key: string }>();

function memoKey(scopeText: string, request: PreflightRequest): string {
  if (!Object.isFrozen(request)) return `${scopeText}\n${JSON.stringify(request)}`;
  const known = frozenKeys.get(request);
  if (known !== undefined && known.scope === scopeText) return known.key;
  const key = `${scopeText}\n${JSON.stringify(request)}`;
  frozenKeys.set(request, { scope: scopeText, key });
  return key;
}
