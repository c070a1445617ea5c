/** Two DP rows, reusable across calls for strings of up to `length - 2` code points. */
export interface LevenshteinRows {
  prev: Int32Array;
  cur: Int32Array;
}

export function levenshteinRows(maxLength: number): LevenshteinRows {
  return { prev: new Int32Array(maxLength + 2), cur: new Int32Array(maxLength + 2) };
}

/**
 * Levenshtein distance between a[aStart..aEnd) and b[bStart..bEnd) when it is at most `max`,
 * else max + 1. Only the diagonal band |i - j| <= max is computed, and the scan stops as soon as
 * a whole row exceeds `max`.
 */
export function boundedLevenshtein(
  a: Int32Array,
  aStart: number,
  aEnd: number,
  b: Int32Array,
  bStart: number,
  bEnd: number,
  max: number,
  rows: LevenshteinRows = levenshteinRows(bEnd - bStart),
): number {
  const la = aEnd - aStart;
  const lb = bEnd - bStart;
  const over = max + 1;
  if (Math.abs(la - lb) > max) return over;
  let prev = rows.prev;
  let cur = rows.cur;
  for (let j = 0; j <= lb + 1; j += 1) prev[j] = j <= max && j <= lb ? j : over;
  for (let i = 1; i <= la; i += 1) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(lb, i + max);
    cur[lo - 1] = lo === 1 ? Math.min(i, over) : over;
    let rowMin = cur[lo - 1] ?? over;
    const ai = a[aStart + i - 1];
    for (let j = lo; j <= hi; j += 1) {
      const substitute = (prev[j - 1] ?? over) + (ai === b[bStart + j - 1] ? 0 : 1);
      const remove = (prev[j] ?? over) + 1;
      const insert = (cur[j - 1] ?? over) + 1;
      const best = Math.min(substitute, remove, insert, over);
      cur[j] = best;
      if (best < rowMin) rowMin = best;
    }
    // The cell right of the band is read by the next row as "out of band".
    if (hi + 1 <= lb) cur[hi + 1] = over;
    if (rowMin > max) return over;
    const swap = prev;
    prev = cur;
    cur = swap;
  }
  return Math.min(prev[lb] ?? over, over);
}
