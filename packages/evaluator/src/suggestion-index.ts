import { classifyTool } from './classify-tool.js';
import { variantCount, variantScratch, writeVariantHashes } from './deletion-variants.js';
import type { GatewaySnapshot } from './snapshot.js';

/**
 * Names are indexed by the deletion neighbourhood (<= 2 deletions) of their last
 * SUFFIX_WINDOW code points only, so memory per name is bounded (56 hashes) however long it is.
 * Exact anyway: if d(name, query) <= 2, the optimal alignment maps the name's window onto some
 * suffix of the query at cost <= 2, and the query's suffix of the window's width then shares a
 * variant with it (see querySuggestions). The window sits at the end because names share their
 * beginnings (the server, a common tool prefix) far more than their ends.
 */
export const SUFFIX_WINDOW = 10;

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
  /** Code points of every name, concatenated; name i spans [starts[i], starts[i + 1]). */
  readonly points: Int32Array;
  readonly starts: Int32Array;
  /** Name ids in code-unit order of their names (prefix matches are a contiguous run). */
  readonly sorted: Int32Array;
  readonly byName: ReadonlyMap<string, number>;
  /** Distinct code-point lengths of the names, ascending. */
  readonly lengths: Int32Array;
  /**
   * Variant hash table, open addressing with linear probing (load <= 1/2): slot s holds the
   * hash tableHashes[s] of a variant of name tableNames[s] - 1; tableNames[s] = 0 marks an empty slot.
   */
  readonly tableMask: number;
  readonly tableHashes: Int32Array;
  readonly tableNames: Int32Array;
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

function buildVariantTable(points: Int32Array, starts: Int32Array): Pick<SuggestionIndex, 'tableMask' | 'tableHashes' | 'tableNames'> {
  const count = starts.length - 1;
  let total = 0;
  for (let id = 0; id < count; id += 1) total += variantCount(Math.min(SUFFIX_WINDOW, (starts[id + 1] ?? 0) - (starts[id] ?? 0)));
  let size = 2;
  while (size < 2 * total) size *= 2;
  const tableMask = size - 1;
  const tableHashes = new Int32Array(size);
  const tableNames = new Int32Array(size);
  const scratch = variantScratch(SUFFIX_WINDOW);
  const variants = new Int32Array(variantCount(SUFFIX_WINDOW));
  for (let id = 0; id < count; id += 1) {
    const end = starts[id + 1] ?? 0;
    const written = writeVariantHashes(points, Math.max(starts[id] ?? 0, end - SUFFIX_WINDOW), end, variants, 0, scratch);
    for (let k = 0; k < written; k += 1) {
      const hash = variants[k] ?? 0;
      let slot = hash & tableMask;
      while (tableNames[slot] !== 0) slot = (slot + 1) & tableMask;
      tableHashes[slot] = hash;
      tableNames[slot] = id + 1;
    }
  }
  return { tableMask, tableHashes, tableNames };
}

export function buildSuggestionIndex(snapshot: GatewaySnapshot): SuggestionIndex {
  const { names, servers, extraServers, byName } = collectCandidates(snapshot);
  const { points, starts } = encodeNames(names);
  const sortedNames = [...names].sort();
  const sorted = new Int32Array(sortedNames.length);
  for (let rank = 0; rank < sortedNames.length; rank += 1) sorted[rank] = byName.get(sortedNames[rank] ?? '') ?? 0;
  const lengthSet = new Set<number>();
  for (let id = 0; id < names.length; id += 1) lengthSet.add((starts[id + 1] ?? 0) - (starts[id] ?? 0));
  const lengths = Int32Array.from(lengthSet).sort();
  return { names, servers, extraServers, points, starts, sorted, byName, lengths, ...buildVariantTable(points, starts) };
}
