import { classifyTool } from './classify-tool.js';
import { variantCount, variantScratch, writeVariantHashes } from './deletion-variants.js';
import type { GatewaySnapshot } from './snapshot.js';

/**
 * Names are indexed by the deletion neighbourhood (<= 2 deletions) of their last
 * SUFFIX_WINDOW code points only, so memory per name is bounded (at most 37 hashes) however long it is.
 * Exact anyway: if d(name, query) <= 2, the optimal alignment maps the name's window onto some
 * suffix of the query at cost <= 2, and the query's suffix of the window's width then shares a
 * variant with it (see querySuggestions). The window sits at the end because names share their
 * beginnings (the server, a common tool prefix) far more than their ends.
 */
export const SUFFIX_WINDOW = 8;

/**
 * The did_you_mean candidates of one snapshot, indexed once per snapshot version: the full
 * `server:tool` names of indexed tools on configured, enabled, not quarantined servers whose tool
 * passes classifyTool. The caller's scope filters at query time.
 */
export interface SuggestionIndex {
  /** Unique candidate names. */
  readonly names: readonly string[];
  /** The (first) server each name belongs to. */
  readonly servers: readonly string[];
  /** Further servers yielding the same name (only possible with ':' in server names); by name id. */
  readonly extraServers: ReadonlyMap<number, readonly string[]>;
  /** Every server that owns a candidate name. */
  readonly owners: readonly string[];
  /** Code points of every name, concatenated; name i spans [starts[i], starts[i + 1]). */
  readonly points: Int32Array;
  readonly starts: Int32Array;
  readonly byName: ReadonlyMap<string, number>;
  /** Distinct code-point lengths of the names, ascending. */
  readonly lengths: Int32Array;
  /**
   * Name ids grouped by code-point length (the groups in the order of `lengths`), each group in
   * code-unit order of the names: group g is sorted[groupStarts[g]..groupStarts[g + 1]), and the
   * names a query prefixes form a contiguous run in each group.
   */
  readonly sorted: Int32Array;
  readonly groupStarts: Int32Array;
  /**
   * Variant hashes bucketed by their top bits (hash >>> bucketShift, at most 4 per bucket on
   * average): bucket b holds entries [bucketStarts[b], bucketStarts[b + 1]) of variantHashes and,
   * aligned with them, variantNames (the name id each variant belongs to).
   */
  readonly bucketShift: number;
  readonly bucketStarts: Int32Array;
  readonly variantHashes: Int32Array;
  readonly variantNames: Int32Array;
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
  for (let id = 0; id < names.length; id += 1) {
    const name = names[id] ?? '';
    starts[id] = at;
    for (let unit = 0; unit < name.length; ) {
      const point = name.codePointAt(unit) ?? 0;
      points[at] = point;
      at += 1;
      unit += point > 0xffff ? 2 : 1;
    }
  }
  starts[names.length] = at;
  return { points: points.subarray(0, at), starts };
}

/** One counting sort by the hashes' top bits: the sorted entries are the lookup table. */
function buildVariantTable(points: Int32Array, starts: Int32Array): Pick<SuggestionIndex, 'bucketShift' | 'bucketStarts' | 'variantHashes' | 'variantNames'> {
  const count = starts.length - 1;
  let total = 0;
  for (let id = 0; id < count; id += 1) total += variantCount(Math.min(SUFFIX_WINDOW, (starts[id + 1] ?? 0) - (starts[id] ?? 0)));
  let bits = 1;
  while (bits < 30 && 4 << bits < total) bits += 1;
  const bucketShift = 32 - bits;
  const bucketStarts = new Int32Array((1 << bits) + 1);
  const hashes = new Int32Array(total);
  const owners = new Int32Array(total);
  const scratch = variantScratch(SUFFIX_WINDOW);
  let at = 0;
  for (let id = 0; id < count; id += 1) {
    const end = starts[id + 1] ?? 0;
    const next = writeVariantHashes(points, Math.max(starts[id] ?? 0, end - SUFFIX_WINDOW), end, hashes, at, scratch);
    for (let k = at; k < next; k += 1) {
      owners[k] = id;
      const bucket = ((hashes[k] ?? 0) >>> bucketShift) + 1;
      bucketStarts[bucket] = (bucketStarts[bucket] ?? 0) + 1;
    }
    at = next;
  }
  for (let b = 1; b < bucketStarts.length; b += 1) bucketStarts[b] = (bucketStarts[b] ?? 0) + (bucketStarts[b - 1] ?? 0);
  const fill = bucketStarts.slice(0, bucketStarts.length - 1);
  const variantHashes = new Int32Array(total);
  const variantNames = new Int32Array(total);
  for (let k = 0; k < total; k += 1) {
    const hash = hashes[k] ?? 0;
    const bucket = hash >>> bucketShift;
    const position = fill[bucket] ?? 0;
    fill[bucket] = position + 1;
    variantHashes[position] = hash;
    variantNames[position] = owners[k] ?? 0;
  }
  return { bucketShift, bucketStarts, variantHashes, variantNames };
}

/** Ids grouped by code-point length (ascending), each group in code-unit order of the names. */
function groupByLength(names: readonly string[], byName: ReadonlyMap<string, number>, starts: Int32Array): Pick<SuggestionIndex, 'lengths' | 'sorted' | 'groupStarts'> {
  const lengthOf = (id: number): number => (starts[id + 1] ?? 0) - (starts[id] ?? 0);
  const lengths = Int32Array.from(new Set(names.map((_, id) => lengthOf(id)))).sort();
  const groupOf = new Map<number, number>();
  lengths.forEach((length, group) => groupOf.set(length, group));
  const groupStarts = new Int32Array(lengths.length + 1);
  for (let id = 0; id < names.length; id += 1) {
    const group = (groupOf.get(lengthOf(id)) ?? 0) + 1;
    groupStarts[group] = (groupStarts[group] ?? 0) + 1;
  }
  for (let group = 0; group < lengths.length; group += 1) groupStarts[group + 1] = (groupStarts[group + 1] ?? 0) + (groupStarts[group] ?? 0);
  const fill = groupStarts.slice(0, lengths.length);
  const sorted = new Int32Array(names.length);
  // A stable pass over the names in code-unit order keeps each group sorted.
  for (const name of [...names].sort()) {
    const id = byName.get(name) ?? 0;
    const group = groupOf.get(lengthOf(id)) ?? 0;
    const at = fill[group] ?? 0;
    fill[group] = at + 1;
    sorted[at] = id;
  }
  return { lengths, sorted, groupStarts };
}

export function buildSuggestionIndex(snapshot: GatewaySnapshot): SuggestionIndex {
  return indexCandidates(collectCandidates(snapshot));
}

/**
 * The candidates of a server that is not a gateway: its own tool names, all owned by one nameless
 * server (query with the visible set `new Set([''])`).
 */
export function buildNameSuggestionIndex(names: Iterable<string>): SuggestionIndex {
  const collected: Collected = { names: [], servers: [], extraServers: new Map(), byName: new Map() };
  for (const name of names) {
    if (collected.byName.has(name)) continue;
    collected.byName.set(name, collected.names.length);
    collected.names.push(name);
    collected.servers.push('');
  }
  return indexCandidates(collected);
}

function indexCandidates({ names, servers, extraServers, byName }: Collected): SuggestionIndex {
  const { points, starts } = encodeNames(names);
  const owners = [...new Set([...servers, ...[...extraServers.values()].flat()])];
  return { names, servers, extraServers, owners, points, starts, byName, ...groupByLength(names, byName, starts), ...buildVariantTable(points, starts) };
}
