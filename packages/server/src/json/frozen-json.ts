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

/** Freezes `value` and every object reachable from it; returns it. */
export function deepFreeze<T extends object>(value: T): T {
  for (const member of Object.values(value)) if (typeof member === 'object' && member !== null && !Object.isFrozen(member)) deepFreeze(member as object);
  return Object.freeze(value);
}
