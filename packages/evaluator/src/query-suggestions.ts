import { BestThree } from './best-three.js';
import { boundedLevenshtein } from './bounded-levenshtein.js';
import { endsOnCodePointBoundary, unitOffsetOf, writeCodePoints } from './code-points.js';
import { writeVariantHashes } from './deletion-variants.js';
import { queryScratch, reserve, type QueryScratch } from './query-scratch.js';
import { SUFFIX_WINDOW, type SuggestionIndex } from './suggestion-index.js';

const MAX_DISTANCE = 2;

/** Everything one query needs, passed around instead of closed over (no allocation per candidate). */
interface Query {
  readonly index: SuggestionIndex;
  readonly text: string;
  /** The query's code points are points[0..length). */
  readonly points: Int32Array;
  readonly length: number;
  readonly visible: ReadonlySet<string>;
  /** Every candidate's server is visible: no per-name check needed. */
  readonly allVisible: boolean;
  readonly best: BestThree;
  /** Names within reach of the typo pass already decided (the exact name, prefix matches, checked typos). */
  readonly decided: Set<number>;
  readonly scratch: QueryScratch;
}

function lengthOf(index: SuggestionIndex, id: number): number {
  return (index.starts[id + 1] ?? 0) - (index.starts[id] ?? 0);
}

function isVisible(index: SuggestionIndex, id: number, visible: ReadonlySet<string>): boolean {
  if (visible.has(index.servers[id] ?? '')) return true;
  const extra = index.extraServers.get(id);
  return extra !== undefined && extra.some((server) => visible.has(server));
}

/** First position in [from, to) whose name is not before `text` (or, with `prefixes`, not one that `text` prefixes). */
function bound(index: SuggestionIndex, text: string, from: number, to: number, prefixes: boolean): number {
  let low = from;
  let high = to;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const name = index.names[index.sorted[middle] ?? 0] ?? '';
    if (name < text || (prefixes && name.startsWith(text))) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The query is a prefix of the name. Within one length group those names are a contiguous run in
 * name order and all rank at distance length - nq, so groups are taken shortest first and a run
 * stops at the first name that cannot enter the three (nor can any after it, in either form).
 * Names offered here are marked decided so the typo pass does not offer them again.
 */
function offerLongerNames(query: Query): void {
  const { index, text, length: nq, visible, allVisible, best, decided } = query;
  for (let group = 0; group < index.lengths.length; group += 1) {
    const extra = (index.lengths[group] ?? 0) - nq;
    // extra 0 is the query itself, never suggested (the typo pass drops distance 0 too).
    if (extra <= 0) continue;
    if (!best.admits(true, extra, '')) break;
    const groupEnd = index.groupStarts[group + 1] ?? 0;
    const first = bound(index, text, index.groupStarts[group] ?? 0, groupEnd, false);
    const end = bound(index, text, first, groupEnd, true);
    for (let rank = first; rank < end; rank += 1) {
      const id = index.sorted[rank] ?? 0;
      const name = index.names[id] ?? '';
      // Ending inside a surrogate pair is a code-unit prefix only; the typo pass decides that name.
      if (!endsOnCodePointBoundary(name, text.length)) continue;
      if (!(allVisible || isVisible(index, id, visible))) continue;
      if (!best.admits(true, extra, name)) break;
      decided.add(id);
      best.offer(true, extra, name);
    }
  }
}

/** The name is a prefix of the query: one lookup per distinct shorter name length. */
function offerShorterNames(query: Query): void {
  const { index, text, length: nq, visible, best, decided } = query;
  const astral = nq !== text.length;
  for (const length of index.lengths) {
    if (length >= nq) break;
    const id = index.byName.get(text.slice(0, astral ? unitOffsetOf(text, length) : length));
    if (id === undefined) continue;
    decided.add(id);
    if (query.allVisible || isVisible(index, id, visible)) best.offer(true, nq - length, index.names[id] ?? '');
  }
}

function considerTypo(query: Query, id: number): void {
  const { index, decided } = query;
  if (decided.has(id)) return;
  decided.add(id);
  if (!query.allVisible && !isVisible(index, id, query.visible)) return;
  const begin = index.starts[id] ?? 0;
  const distance = boundedLevenshtein(query.points, 0, query.length, index.points, begin, begin + lengthOf(index, id), MAX_DISTANCE, query.scratch.rows);
  if (distance > 0 && distance <= MAX_DISTANCE) query.best.offer(false, distance, index.names[id] ?? '');
}

/**
 * Typos. A close name's indexed window (its last w = min(n, W) code points) aligns at cost <= 2
 * with some suffix of the query; trimming that suffix to width w (or growing it, at most to the
 * whole query) moves the same number of deletions onto both sides, so the query's suffix of width
 * min(w, nq) always shares a deletion variant with the window.
 */
function offerTypos(query: Query): void {
  const { index, points, length: nq } = query;
  const widths = new Set<number>();
  for (const length of index.lengths) {
    if (Math.abs(length - nq) <= MAX_DISTANCE) widths.add(Math.min(length, SUFFIX_WINDOW, nq));
  }
  const { hashes, variants } = query.scratch;
  const { bucketShift, bucketStarts, variantHashes, variantNames } = index;
  for (const width of widths) {
    const count = writeVariantHashes(points, nq - width, nq, hashes, 0, variants);
    for (let k = 0; k < count; k += 1) {
      const hash = hashes[k] ?? 0;
      const bucket = hash >>> bucketShift;
      const end = bucketStarts[bucket + 1] ?? 0;
      for (let entry = bucketStarts[bucket] ?? 0; entry < end; entry += 1) {
        if (variantHashes[entry] !== hash) continue;
        const id = variantNames[entry] ?? 0;
        if (Math.abs(lengthOf(index, id) - nq) <= MAX_DISTANCE) considerTypo(query, id);
      }
    }
  }
}

/**
 * The did_you_mean list for a canonical `server:tool` query: visible candidates that are a
 * prefix of the query or have it as a prefix (rune-wise), or lie within Levenshtein distance 2;
 * never the query itself; prefix matches first, then distance, then name; at most three.
 */
export function querySuggestions(index: SuggestionIndex, text: string, visible: ReadonlySet<string>, scratch: QueryScratch = queryScratch()): string[] {
  reserve(scratch, text.length);
  const length = writeCodePoints(text, scratch.points);
  if (scratch.visibleChecked !== visible) {
    scratch.visibleChecked = visible;
    scratch.allVisible = index.owners.every((server) => visible.has(server));
  }
  const query: Query = { index, text, points: scratch.points, length, visible, allVisible: scratch.allVisible, best: new BestThree(), decided: new Set(), scratch };
  offerLongerNames(query);
  offerShorterNames(query);
  offerTypos(query);
  return query.best.names();
}
