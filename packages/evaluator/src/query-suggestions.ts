import { BestThree } from './best-three.js';
import { boundedLevenshtein } from './bounded-levenshtein.js';
import { codePointsOf, endsOnCodePointBoundary } from './code-points.js';
import { gramHash, pieceLength } from './gram-hash.js';
import type { SuggestionIndex } from './suggestion-index.js';

const MAX_DISTANCE = 2;

function isVisible(index: SuggestionIndex, id: number, visible: ReadonlySet<string>): boolean {
  if (visible.has(index.servers[id] ?? '')) return true;
  const extra = index.extraServers.get(id);
  return extra !== undefined && extra.some((server) => visible.has(server));
}

/** First rank whose name is >= query (code-unit order). */
function lowerBound(index: SuggestionIndex, query: string): number {
  let low = 0;
  let high = index.sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((index.names[index.sorted[middle] ?? 0] ?? '') < query) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The did_you_mean list for a canonical `server:tool` query: visible candidates that are a
 * prefix of the query or have it as a prefix (rune-wise), or lie within Levenshtein distance 2;
 * never the query itself; prefix matches first, then distance, then name; at most three.
 */
export function querySuggestions(index: SuggestionIndex, query: string, visible: ReadonlySet<string>): string[] {
  const { points: q, offsets } = codePointsOf(query);
  const nq = q.length;
  const best = new BestThree();
  // Names already decided (the exact name, prefix matches); the typo pass skips them.
  const decided = new Set<number>();
  const lengthOf = (id: number): number => (index.starts[id + 1] ?? 0) - (index.starts[id] ?? 0);

  // The query is a prefix of the name: a contiguous run in code-unit order.
  for (let rank = lowerBound(index, query); rank < index.sorted.length; rank += 1) {
    const id = index.sorted[rank] ?? 0;
    const name = index.names[id] ?? '';
    if (!name.startsWith(query)) break;
    // Ending inside a surrogate pair is a code-unit prefix only; the typo pass decides it.
    if (!endsOnCodePointBoundary(name, query.length)) continue;
    decided.add(id);
    if (name.length === query.length || !isVisible(index, id, visible)) continue;
    best.offer(true, lengthOf(id) - nq, name);
  }

  // The name is a prefix of the query: one lookup per distinct shorter name length.
  for (const length of index.lengths) {
    if (length >= nq) break;
    const id = index.byName.get(query.slice(0, offsets[length] ?? 0));
    if (id === undefined) continue;
    decided.add(id);
    if (isVisible(index, id, visible)) best.offer(true, nq - length, index.names[id] ?? '');
  }

  const consider = (id: number): void => {
    if (decided.has(id)) return;
    decided.add(id);
    if (!isVisible(index, id, visible)) return;
    const begin = index.starts[id] ?? 0;
    const distance = boundedLevenshtein(q, 0, nq, index.points, begin, begin + lengthOf(id), MAX_DISTANCE);
    if (distance > 0 && distance <= MAX_DISTANCE) best.offer(false, distance, index.names[id] ?? '');
  };

  // Typos: look up every gram of the query for each piece length its near-length names use.
  const pieceLengths = new Set<number>();
  for (let n = Math.max(3, nq - MAX_DISTANCE); n <= nq + MAX_DISTANCE; n += 1) pieceLengths.add(pieceLength(n));
  for (const length of pieceLengths) {
    const map = index.pieces[length];
    if (map === undefined) continue;
    for (let start = 0; start + length <= nq; start += 1) {
      const postings = map.get(gramHash(q, start, length));
      if (postings === undefined) continue;
      for (let k = 0; k < postings.length; k += 2) {
        const id = postings[k] ?? 0;
        const pieceStart = postings[k + 1] ?? 0;
        // Edits before the piece shift its start, edits after it shift its end: <= 2 in all.
        const shift = Math.abs(pieceStart - start) + Math.abs(lengthOf(id) - pieceStart - (nq - start));
        if (shift <= MAX_DISTANCE) consider(id);
      }
    }
  }
  for (const id of index.short) {
    if (Math.abs(lengthOf(id) - nq) <= MAX_DISTANCE) consider(id);
  }
  return best.names();
}
