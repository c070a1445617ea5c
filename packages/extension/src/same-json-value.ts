/**
 * A value parsed from JSON text, kept in the form {@link sameJsonValue} walks: each object's keys in
 * order beside its values, so a comparison reads the kept side without looking anything up.
 */
export type KnownJson =
  | { readonly kind: 'leaf'; readonly value: string | number | boolean | null }
  | { readonly kind: 'array'; readonly items: readonly KnownJson[] }
  | { readonly kind: 'object'; readonly keys: readonly string[]; readonly values: readonly KnownJson[] };

/** `parsed` (a JSON.parse result) as {@link KnownJson}. */
export function knownJson(parsed: unknown): KnownJson {
  if (Array.isArray(parsed)) return { kind: 'array', items: parsed.map(knownJson) };
  if (typeof parsed === 'object' && parsed !== null) {
    const keys = Object.keys(parsed);
    return { kind: 'object', keys, values: keys.map((key) => knownJson((parsed as Record<string, unknown>)[key])) };
  }
  return { kind: 'leaf', value: parsed as string | number | boolean | null };
}

/**
 * Whether `value` is JSON data that `JSON.stringify` writes exactly as it writes `known` (kept from
 * a value parsed from JSON text): plain objects with the same keys in the same order, arrays of the
 * same length, and equal strings, numbers, booleans and nulls, all the way down. Anything else
 * (undefined, a function, an object with another prototype, a BigInt) answers false: the caller
 * then compares the JSON text instead. So `true` means the two texts are equal, found without
 * writing either one; `false` says nothing.
 *
 * Why: a repeated rider (the same 50 IDs before every job) was serialized for its memo key on every
 * request, and the 2.5 KB text hashed and dropped again (callgrind: ~75,000 instructions a rider).
 */
export function sameJsonValue(value: unknown, known: KnownJson, depth = MAX_DEPTH): boolean {
  // A kept leaf is a string, a finite number, a boolean or null: strict equality is the same text
  // (0 and -0 both write 0).
  if (known.kind === 'leaf') return value === known.value;
  if (typeof value !== 'object' || value === null || depth === 0) return false;
  if (known.kind === 'array') {
    if (!Array.isArray(value) || value.length !== known.items.length || Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < known.items.length; i++) if (!sameJsonValue(value[i], known.items[i]!, depth - 1)) return false;
    return true;
  }
  if (Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  // for-in over a plain object: its own enumerable string keys in Object.keys order (Object.prototype
  // has no enumerable members), without building the array.
  const { keys, values } = known;
  let i = 0;
  for (const key in value) {
    if (i === keys.length || key !== keys[i] || key === 'toJSON') return false;
    if (!sameJsonValue((value as Record<string, unknown>)[key], values[i]!, depth - 1)) return false;
    i++;
  }
  return i === keys.length;
}

/** Deeper than any rider (a rider is four levels: tools, entry, pin...): a deeper value is compared as text. */
const MAX_DEPTH = 16;
