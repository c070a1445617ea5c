/**
 * Results whose JSON text is known before they are sent. A tools/list page is ~0.6 MB for 1,000
 * tools and the same for every request until the published state changes; serializing it once per
 * state instead of once per request is most of what a listing costs the gateway.
 *
 * The mark is on the object's identity, and the object is frozen when marked, so the text and the
 * object cannot drift apart: anything that wants to change such a result (a rider's `_meta`, a
 * revision's own fields) has to build a new object, which carries no mark and is serialized as usual.
 */
const marked = new WeakMap<object, () => Buffer>();

/** Marks `value` (frozen from now on) as serializing to `json()`'s bytes; `json` runs only when a sender asks. */
export function withPreparedJson<T extends object>(value: T, json: () => Buffer): T {
  Object.freeze(value);
  marked.set(value, json);
  return value;
}

/** The JSON bytes of a marked value, or undefined for any other value. */
export function preparedJson(value: unknown): Buffer | undefined {
  return typeof value === 'object' && value !== null ? marked.get(value)?.() : undefined;
}
