import { levenshteinRows, type LevenshteinRows } from './bounded-levenshtein.js';
import { variantCount, variantScratch, type VariantScratch } from './deletion-variants.js';
import { SUFFIX_WINDOW } from './suggestion-index.js';

/**
 * Working memory of suggestion queries. One evaluation creates one and reuses it for each of its
 * IDs, so a query allocates no typed arrays; it never outlives the call that made it.
 */
export interface QueryScratch {
  points: Int32Array;
  rows: LevenshteinRows;
  /** Whether every candidate owner is in `visibleChecked` (the set the answer was computed for). */
  visibleChecked: ReadonlySet<string> | undefined;
  allVisible: boolean;
  readonly variants: VariantScratch;
  readonly hashes: Int32Array;
}

export function queryScratch(): QueryScratch {
  return { points: new Int32Array(64), rows: levenshteinRows(66), visibleChecked: undefined, allVisible: false, variants: variantScratch(SUFFIX_WINDOW), hashes: new Int32Array(variantCount(SUFFIX_WINDOW)) };
}

/** Makes room for a query of `units` UTF-16 code units (and candidates up to 2 code points longer). */
export function reserve(scratch: QueryScratch, units: number): void {
  if (scratch.points.length >= units) return;
  scratch.points = new Int32Array(units);
  scratch.rows = levenshteinRows(units + 2);
}
