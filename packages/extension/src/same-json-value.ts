/**
 * Whether `value` is JSON data that `JSON.stringify` writes exactly as it writes `known` (a value
 * parsed from JSON text): plain objects with the same keys in the same order, arrays of the same
 * length, and equal strings, finite numbers, booleans and nulls, all the way down. Anything else
 * (undefined, a function, a non-finite number, an object with another prototype or a toJSON of its
 * own, a BigInt) answers false: the caller then compares the JSON text instead. So `true` means
 * the two texts are equal, found without writing either one; `false` says nothing.
 *
 * Why: a repeated rider (the same 50 IDs before every job) was serialized for its memo key on every
 * request, and the 2.5 KB text hashed and dropped again (callgrind: ~60,000 instructions a rider);
 * walking it beside the copy kept from last time costs a fraction and allocates nothing.
 */
export function sameJsonValue(value: unknown, known: unknown, depth = MAX_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) {
    return value === known && (typeof value === 'string' || typeof value === 'boolean' || value === null || (typeof value === 'number' && Number.isFinite(value)));
  }
  if (typeof known !== 'object' || known === null || depth === 0) return false;
  if (Array.isArray(value)) {
    if (!Array.isArray(known) || Object.getPrototypeOf(value) !== Array.prototype || value.length !== known.length) return false;
    for (let i = 0; i < value.length; i++) if (!sameJsonValue(value[i], known[i], depth - 1)) return false;
    return true;
  }
  if (Array.isArray(known) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const keys = Object.keys(value);
  const knownKeys = Object.keys(known);
  if (keys.length !== knownKeys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== knownKeys[i] || key === 'toJSON') return false;
    if (!sameJsonValue((value as Record<string, unknown>)[key], (known as Record<string, unknown>)[key], depth - 1)) return false;
  }
  return true;
}

/** Deeper than any rider (a rider is four levels: tools, entry, pin...): a deeper value is compared as text. */
const MAX_DEPTH = 16;
