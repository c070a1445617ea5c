/**
 * Hashes of the deletion neighbourhood of a code-point string: every string obtained by
 * deleting at most two code points. Two strings within Levenshtein distance 2 always share
 * such a variant (substitutions and deletions on one side, substitutions and insertions on the
 * other), so equal hashes find every close name; a hash collision only costs an exact check.
 */

const BASE = 0x01000193;

/** Number of variants (with repeats) of a string of `width` code points. */
export function variantCount(width: number): number {
  return 1 + width + (width * (width - 1)) / 2;
}

function finish(hash: number, length: number): number {
  // Mix the length in and spread the bits: the polynomial's low bits alone bucket poorly.
  let h = (hash ^ Math.imul(length + 1, 0x9e3779b1)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** Scratch space for strings of up to `maxWidth` code points (prefix hashes and powers of the base). */
export interface VariantScratch {
  readonly prefix: Int32Array;
  readonly powers: Int32Array;
}

export function variantScratch(maxWidth: number): VariantScratch {
  const powers = new Int32Array(maxWidth + 1);
  powers[0] = 1;
  for (let k = 1; k <= maxWidth; k += 1) powers[k] = Math.imul(powers[k - 1] ?? 0, BASE);
  return { prefix: new Int32Array(maxWidth + 1), powers };
}

/**
 * Writes the variant hashes of points[from..to) into out[at..] and returns the next free index.
 * Each hash is derived from prefix hashes in constant time: hash(x) = sum x[k] * BASE^(len-1-k).
 */
export function writeVariantHashes(points: Int32Array, from: number, to: number, out: Int32Array, at: number, scratch: VariantScratch): number {
  const { prefix, powers } = scratch;
  const w = to - from;
  prefix[0] = 0;
  for (let k = 0; k < w; k += 1) prefix[k + 1] = (Math.imul(prefix[k] ?? 0, BASE) + (points[from + k] ?? 0)) | 0;
  const whole = prefix[w] ?? 0;
  let next = at;
  out[next++] = finish(whole, w);
  for (let i = 0; i < w; i += 1) {
    // x without i = x[0..i) * BASE^(w-1-i) + x[i+1..w)
    const pi = prefix[i] ?? 0;
    const pi1 = prefix[i + 1] ?? 0;
    out[next++] = finish((Math.imul(pi - pi1, powers[w - 1 - i] ?? 0) + whole) | 0, w - 1);
    for (let j = i + 1; j < w; j += 1) {
      // x without i and j = x[0..i) * BASE^(w-2-i) + x[i+1..j) * BASE^(w-1-j) + x[j+1..w)
      const middle = ((prefix[j] ?? 0) - Math.imul(pi1, powers[j - i - 1] ?? 0)) | 0;
      const tail = (whole - Math.imul(prefix[j + 1] ?? 0, powers[w - 1 - j] ?? 0)) | 0;
      out[next++] = finish((Math.imul(pi, powers[w - 2 - i] ?? 0) + Math.imul(middle, powers[w - 1 - j] ?? 0) + tail) | 0, w - 2);
    }
  }
  return next;
}
