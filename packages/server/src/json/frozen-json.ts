/**
 * JSON text computed once per frozen value. A value many holders share (a reused evaluation's tool
 * list, the metadata its activity records carry) is deep-frozen, so it cannot drift from text
 * computed earlier; anything not frozen is serialised every time, so a value nobody shares pays for
 * no cache.
 */
const texts = new WeakMap<object, string>();

/** JSON.stringify of `value`, remembered while `value` lives if it is frozen. */
export function jsonOf(value: object): string {
  if (!Object.isFrozen(value)) return JSON.stringify(value);
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/**
 * The UTF-8 bytes of {@link jsonOf}, kept the same way (frozen values only), for a sender that copies
 * a shared value's text into its answer's bytes: a rider's wire verdicts (~6 KB for 50 IDs) were
 * encoded to UTF-8 again for every answer that carries them.
 */
const bytes = new WeakMap<object, Buffer>();

export function jsonBytesOf(value: object): Buffer {
  if (!Object.isFrozen(value)) return Buffer.from(JSON.stringify(value), 'utf8');
  let known = bytes.get(value);
  if (known === undefined) {
    known = Buffer.from(jsonOf(value), 'utf8');
    bytes.set(value, known);
  }
  return known;
}

/** Freezes `value` and every object reachable from it; returns it. */
export function deepFreeze<T extends object>(value: T): T {
  for (const member of Object.values(value)) if (typeof member === 'object' && member !== null && !Object.isFrozen(member)) deepFreeze(member as object);
  return Object.freeze(value);
}
