import { classifyTool } from './classify-tool.js';
import { gramHash, pieceLength } from './gram-hash.js';
import type { GatewaySnapshot } from './snapshot.js';

/**
 * The did_you_mean candidates of one snapshot, indexed once per snapshot version.
 *
 * Candidates are the full `server:tool` names of indexed tools on configured, enabled, not
 * quarantined servers whose tool passes classifyTool; the caller's scope filters at query time.
 *
 * Typo search (distance <= 2) uses the pigeonhole principle instead of deletion
 * neighbourhoods, so memory stays linear in the names' length: each name stores three disjoint
 * pieces (grams of pieceLength(n) code points). Two edits touch at most two pieces, so a name
 * within distance 2 shares at least one intact piece with the query, at a position shifted by at
 * most 2. Each name picks its three rarest disjoint grams, so shared structure (a server prefix,
 * a tool name repeated across servers) does not flood the candidate lists.
 */
export interface SuggestionIndex {
  /** Unique candidate names. */
  readonly names: readonly string[];
  /** The (first) server each name belongs to. */
  readonly servers: readonly string[];
  /** Further servers yielding the same name (only with ':' in server names); by name id. */
  readonly extraServers: ReadonlyMap<number, readonly string[]>;
  /** Code points of every name, concatenated; name i spans [starts[i], starts[i + 1]). */
  readonly points: Int32Array;
  readonly starts: Int32Array;
  /** Name ids in code-unit order of their names (prefix matches are a contiguous run). */
  readonly sorted: Int32Array;
  readonly byName: ReadonlyMap<string, number>;
  /** Distinct code-point lengths of the names, ascending. */
  readonly lengths: Int32Array;
  /** By piece length (1-4): gram hash -> [name id, piece start, name id, piece start, ...]. */
  readonly pieces: readonly (ReadonlyMap<number, readonly number[]> | undefined)[];
  /** Names too short for three pieces (under 3 code points): always checked directly. */
  readonly short: Int32Array;
}

interface Collected {
  readonly names: string[];
  readonly servers: string[];
  readonly extraServers: Map<number, string[]>;
  readonly byName: Map<string, number>;
}

function collectCandidates(snapshot: GatewaySnapshot): Collected {
  const collected: Collected = { names: [], servers: [], extraServers: new Map(), byName: new Map() };
  for (const [serverName, server] of snapshot.servers) {
    if (!server.enabled || server.quarantined) continue;
    for (const tool of server.tools.keys()) {
      if (classifyTool(server, tool, snapshot.tool_quarantine) !== undefined) continue;
      const name = `${serverName}:${tool}`;
      const existing = collected.byName.get(name);
      if (existing === undefined) {
        collected.byName.set(name, collected.names.length);
        collected.names.push(name);
        collected.servers.push(serverName);
      } else if (collected.servers[existing] !== serverName) {
        const extra = collected.extraServers.get(existing) ?? [];
        extra.push(serverName);
        collected.extraServers.set(existing, extra);
      }
    }
  }
  return collected;
}

function encodeNames(names: readonly string[]): { points: Int32Array; starts: Int32Array } {
  let units = 0;
  for (const name of names) units += name.length;
  const points = new Int32Array(units);
  const starts = new Int32Array(names.length + 1);
  let at = 0;
  names.forEach((name, id) => {
    starts[id] = at;
    for (let unit = 0; unit < name.length; ) {
      const point = name.codePointAt(unit) ?? 0;
      points[at] = point;
      at += 1;
      unit += point > 0xffff ? 2 : 1;
    }
  });
  starts[names.length] = at;
  return { points: points.subarray(0, at), starts };
}

/** Three disjoint piece starts, rarest grams first; the plain split when greed leaves no room. */
function choosePieces(hashes: Int32Array, from: number, count: number, length: number, frequency: ReadonlyMap<number, number>): number[] {
  const chosen: number[] = [];
  while (chosen.length < 3) {
    let best = -1;
    let bestFrequency = Infinity;
    for (let start = 0; start < count; start += 1) {
      if (chosen.some((taken) => Math.abs(taken - start) < length)) continue;
      const seen = frequency.get(hashes[from + start] ?? 0) ?? 0;
      if (seen < bestFrequency) {
        best = start;
        bestFrequency = seen;
      }
    }
    if (best < 0) return [0, length, 2 * length];
    chosen.push(best);
  }
  return chosen;
}

function indexPieces(points: Int32Array, starts: Int32Array): { pieces: (Map<number, number[]> | undefined)[]; short: number[] } {
  const ids = starts.length - 1;
  // Gram hashes of every start of every name (for its own piece length), then their frequency.
  const gramFrom = new Int32Array(ids + 1);
  let total = 0;
  for (let id = 0; id < ids; id += 1) {
    gramFrom[id] = total;
    const n = (starts[id + 1] ?? 0) - (starts[id] ?? 0);
    if (n >= 3) total += n - pieceLength(n) + 1;
  }
  gramFrom[ids] = total;
  const hashes = new Int32Array(total);
  const frequency: Map<number, number>[] = [new Map(), new Map(), new Map(), new Map(), new Map()];
  const short: number[] = [];
  for (let id = 0; id < ids; id += 1) {
    const begin = starts[id] ?? 0;
    const n = (starts[id + 1] ?? 0) - begin;
    if (n < 3) {
      short.push(id);
      continue;
    }
    const length = pieceLength(n);
    const counts = frequency[length] as Map<number, number>;
    const from = gramFrom[id] ?? 0;
    for (let start = 0; start + length <= n; start += 1) {
      const hash = gramHash(points, begin + start, length);
      hashes[from + start] = hash;
      counts.set(hash, (counts.get(hash) ?? 0) + 1);
    }
  }
  const pieces: (Map<number, number[]> | undefined)[] = [undefined, undefined, undefined, undefined, undefined];
  for (let id = 0; id < ids; id += 1) {
    const n = (starts[id + 1] ?? 0) - (starts[id] ?? 0);
    if (n < 3) continue;
    const length = pieceLength(n);
    const from = gramFrom[id] ?? 0;
    const map = (pieces[length] ??= new Map());
    for (const start of choosePieces(hashes, from, n - length + 1, length, frequency[length] as Map<number, number>)) {
      const hash = hashes[from + start] ?? 0;
      const list = map.get(hash);
      if (list === undefined) map.set(hash, [id, start]);
      else list.push(id, start);
    }
  }
  return { pieces, short };
}

export function buildSuggestionIndex(snapshot: GatewaySnapshot): SuggestionIndex {
  const { names, servers, extraServers, byName } = collectCandidates(snapshot);
  const { points, starts } = encodeNames(names);
  const sortedNames = [...names].sort();
  const sorted = new Int32Array(sortedNames.length);
  sortedNames.forEach((name, rank) => {
    sorted[rank] = byName.get(name) ?? 0;
  });
  const lengthSet = new Set<number>();
  for (let id = 0; id < names.length; id += 1) lengthSet.add((starts[id + 1] ?? 0) - (starts[id] ?? 0));
  const lengths = Int32Array.from([...lengthSet]).sort();
  const { pieces, short } = indexPieces(points, starts);
  return { names, servers, extraServers, points, starts, sorted, byName, lengths, pieces, short: Int32Array.from(short) };
}
