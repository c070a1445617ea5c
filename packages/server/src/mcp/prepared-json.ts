/**
 * Results whose JSON text is known before they are sent. A tools/list page is ~0.6 MB for 1,000
 * tools and the same for every request until the published state changes; serializing it once per
 * state instead of once per request is most of what a listing costs the gateway.
 *
 * The mark is on the object's identity, and the object is frozen when marked, so the text and the
 * object cannot drift apart: anything that wants to change such a result (a rider's `_meta`, a
 * revision's own fields) has to build a new object, which carries no mark of its own. Such a copy
 * still starts with the marked object's members (same values, same order), and prepared-json-splice.ts
 * builds its text from the marked bytes and the few members it adds.
 */
const marked = new WeakMap<object, () => Buffer>();

/**
 * Marked values by the value of their first member (a page by its frozen tools array): how a copy
 * that starts with a marked value's members finds the value it extends, without a search.
 */
const byFirstMember = new WeakMap<object, object>();

/** Marks `value` (frozen from now on) as serializing to `json()`'s bytes; `json` runs only when a sender asks. */
export function withPreparedJson<T extends object>(value: T, json: () => Buffer): T {
  Object.freeze(value);
  marked.set(value, json);
  const first = firstMember(value);
  if (typeof first === 'object' && first !== null) byFirstMember.set(first, value);
  return value;
}

/** The JSON bytes of a marked value, or undefined for any other value. */
export function preparedJson(value: unknown): Buffer | undefined {
  return typeof value === 'object' && value !== null ? marked.get(value)?.() : undefined;
}

/**
 * The marked value whose first member `value` shares, if any. A candidate only: whether `value`
 * really starts with all of its members is for the caller to check.
 */
export function preparedBaseCandidate(value: object): object | undefined {
  const first = firstMember(value);
  return typeof first === 'object' && first !== null ? byFirstMember.get(first) : undefined;
}

function firstMember(value: object): unknown {
  for (const key in value) {
    if (Object.hasOwn(value, key)) return (value as Record<string, unknown>)[key];
  }
  return undefined;
}
