import type { PreflightRequest } from '@mcpproxy/evaluator';
import { deepFreeze } from './deep-freeze.js';
import type { InBandFailure } from './in-band-outcome.js';
import { RIDER_MEMO_MAX_ENTRIES, RIDER_MEMO_MAX_KEY_LENGTH } from './rider-memo.js';
import { knownJson, sameJsonValue, type KnownJson } from './same-json-value.js';

/** A rider's request as a check reads it: validated, capped, free of pin conflicts, deduplicated. */
export type CheckedRequest = { readonly ok: true; readonly request: PreflightRequest } | { readonly ok: false; readonly error: InBandFailure };

/**
 * Riders by their JSON text: what checking a rider gives depends on nothing but the rider (and
 * whether it is read as a pinned one), so the same rider text, which an agent harness sends before
 * every job, is validated and deduplicated once. A hit gives the same frozen request object, whose
 * own key the evaluation memo then keeps too (rider-memo.ts): a repeated rider is not validated
 * again, and not even serialized for this key while it is among the last few checked (below). Refusals are not kept (each is checked again:
 * nothing is saved on a rider nobody should send twice). Bounded like the evaluation memo: texts
 * over its key length are checked each time, and a full memo starts over.
 */
const checked = new Map<string, CheckedRequest>();

/**
 * The riders sent again most recently, newest first, each as a copy parsed from its text: a rider equal
 * to one of them as JSON data (same-json-value.ts) has that text, so it is found without being
 * serialized again. Few: an agent harness repeats one rider, and a rider that differs from one of
 * them differs in its first IDs, so walking past the others costs next to nothing.
 */
interface Recent {
  readonly pins: boolean;
  readonly rider: KnownJson;
  readonly checked: CheckedRequest;
}
const recent: Recent[] = [];
const RECENT_RIDERS = 8;

export function memoisedRiderRequest(raw: unknown, pins: boolean, check: () => CheckedRequest): CheckedRequest {
  for (let i = 0; i < recent.length; i++) {
    const seen = recent[i]!;
    if (seen.pins !== pins || !sameJsonValue(raw, seen.rider)) continue;
    // Kept first: the rider sent again is the likeliest next one.
    if (i > 0) recent.unshift(...recent.splice(i, 1));
    return seen.checked;
  }
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
  if (known !== undefined) {
    // Sent a second time: likely to come again, so it joins the recent ones (a rider sent once
    // pays for no copy).
    remember(pins, text, known);
    return known;
  }
  const fresh = check();
  if (!fresh.ok) return fresh;
  if (checked.size >= RIDER_MEMO_MAX_ENTRIES) checked.clear();
  const kept = deepFreeze(fresh);
  checked.set(key, kept);
  return kept;
}

function remember(pins: boolean, text: string, kept: CheckedRequest): void {
  recent.unshift({ pins, rider: knownJson(JSON.parse(text)), checked: kept });
  if (recent.length > RECENT_RIDERS) recent.length = RECENT_RIDERS;
}
