import type { PreflightRequest } from '@mcpproxy/evaluator';
import { deepFreeze } from './deep-freeze.js';
import type { InBandFailure } from './in-band-outcome.js';
import { RIDER_MEMO_MAX_ENTRIES, RIDER_MEMO_MAX_KEY_LENGTH } from './rider-memo.js';

/** A rider's request as a check reads it: validated, capped, free of pin conflicts, deduplicated. */
export type CheckedRequest = { readonly ok: true; readonly request: PreflightRequest } | { readonly ok: false; readonly error: InBandFailure };

/**
 * Riders by their JSON text: what checking a rider gives depends on nothing but the rider (and
 * whether it is read as a pinned one), so the same rider text, which an agent harness sends before
 * every job, is validated and deduplicated once. A hit gives the same frozen request object, whose
 * own text the evaluation memo then keeps too (rider-memo.ts): a repeated rider is serialized once
 * per answer, for this key, and not validated again. Refusals are not kept (each is checked again:
 * nothing is saved on a rider nobody should send twice). Bounded like the evaluation memo: texts
 * over its key length are checked each time, and a full memo starts over.
 */
const checked = new Map<string, CheckedRequest>();

export function memoisedRiderRequest(raw: unknown, pins: boolean, check: () => CheckedRequest): CheckedRequest {
  let text: string | undefined;
  try {
    text = JSON.stringify(raw);
  } catch {
    text = undefined;
  }
  // A rider that is not JSON text (a BigInt, a cycle: no client can send one) or too long to keep.
  if (text === undefined || text.length > RIDER_MEMO_MAX_KEY_LENGTH) return check();
  const key = pins ? `pins\n${text}` : text;
  const known = checked.get(key);
  if (known !== undefined) return known;
  const fresh = check();
  if (!fresh.ok) return fresh;
  if (checked.size >= RIDER_MEMO_MAX_ENTRIES) checked.clear();
  const kept = deepFreeze(fresh);
  checked.set(key, kept);
  return kept;
}
