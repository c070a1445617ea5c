/**
 * A small-integer hash of `length` code points starting at `start`. Equal grams hash equally;
 * a collision only costs an extra exact distance check, never a missed name.
 */
export function gramHash(points: Int32Array, start: number, length: number): number {
  let hash = 0x811c9dc5;
  for (let k = start; k < start + length; k += 1) {
    hash = Math.imul(hash ^ (points[k] ?? 0), 0x01000193);
  }
  // Keep it in the small-integer range so maps key it without boxing.
  return hash & 0x3fffffff;
}

/** Gram length of the pieces of a name of `length` code points (three disjoint pieces fit). */
export function pieceLength(length: number): number {
  return Math.min(4, Math.floor(length / 3));
}
