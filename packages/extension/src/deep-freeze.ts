/**
 * Freezes `value` and everything reachable from it. What the extension shares between answers (a
 * memoised evaluation, the wire verdicts and activity metadata made from it) is frozen this way, so
 * no holder can change what another reads, and a server may keep the JSON text of a frozen value
 * once for all the answers that carry it.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
