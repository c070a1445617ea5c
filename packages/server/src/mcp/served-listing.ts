import { classifyTool, resolveScope, type Scope } from '@mcpproxy/evaluator';
import type { Tool } from '@modelcontextprotocol/server';
import type { PublishedState, RuntimeServerSnapshot } from '../state/gateway-runtime.js';

/** One served tool: where it comes from and the definition an agent sees (named `server:tool`). */
export interface ServedEntry {
  /** '' for the gateway's own built-in tools, which list first. */
  readonly server: string;
  readonly tool: string;
  readonly definition: Tool;
  /** The upstream's own definition object (the runtime keeps it across versions while the tool is unchanged). */
  readonly source: Tool;
}

/** The aggregated tools/list for one scope, in the deterministic served order (server, then tool). */
export interface ServedListing {
  readonly entries: readonly ServedEntry[];
}

/**
 * A tool is served when its server is configured, enabled, not quarantined, was ready at least once
 * (a server whose connection is down keeps its last-known tools listed), the tool is indexed, the
 * evaluator's classifier raises no gate, and the server is in scope. Computed once per published
 * state and visible-server set; never asks an upstream.
 */
export function servedListing(state: PublishedState, scope: Scope, builtins: readonly Tool[]): ServedListing {
  const visible = resolveScope(state.snapshot, scope);
  const key = [...visible].sort().join('\n');
  let perState = cache.get(state);
  if (perState === undefined) {
    perState = new Map();
    cache.set(state, perState);
  }
  let byBuiltins = perState.get(key);
  if (byBuiltins === undefined) {
    byBuiltins = new WeakMap();
    perState.set(key, byBuiltins);
  }
  let listing = byBuiltins.get(builtins);
  if (listing === undefined) {
    listing = { entries: [...builtinEntries(builtins), ...aggregate(state, visible)] };
    byBuiltins.set(builtins, listing);
  }
  return listing;
}

const cache = new WeakMap<PublishedState, Map<string, WeakMap<readonly Tool[], ServedListing>>>();

function builtinEntries(builtins: readonly Tool[]): ServedEntry[] {
  return [...builtins].sort((a, b) => compareCodeUnits(a.name, b.name)).map((definition) => ({ server: '', tool: definition.name, definition, source: definition }));
}

function aggregate(state: PublishedState, visible: ReadonlySet<string>): ServedEntry[] {
  const servers = [...state.snapshot.servers.values()]
    .filter((server) => visible.has(server.name) && serves(server))
    .sort((a, b) => compareCodeUnits(a.name, b.name));
  const entries: ServedEntry[] = [];
  for (const server of servers) {
    const names = [...server.tools.keys()].sort(compareCodeUnits);
    for (const tool of names) {
      if (classifyTool(server, tool, state.snapshot.tool_quarantine) !== undefined) continue;
      const indexed = server.tools.get(tool)!;
      entries.push({ server: server.name, tool, definition: { ...indexed.definition, name: `${server.name}:${tool}` }, source: indexed.definition });
    }
  }
  return entries;
}

function serves(server: RuntimeServerSnapshot): boolean {
  return server.enabled && !server.quarantined && server.connection.ever_ready;
}

/** Plain code-unit order, the same on every platform and locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Served order: by server, then by tool. */
export function compareServed(a: { server: string; tool: string }, b: { server: string; tool: string }): number {
  return compareCodeUnits(a.server, b.server) || compareCodeUnits(a.tool, b.tool);
}

/** Whether two listings would look the same to a client (names and full definitions). */
export function sameListing(a: ServedListing, b: ServedListing): boolean {
  if (a === b) return true;
  if (a.entries.length !== b.entries.length) return false;
  for (let i = 0; i < a.entries.length; i++) {
    const x = a.entries[i]!;
    const y = b.entries[i]!;
    if (x.definition.name !== y.definition.name) return false;
    if (x.source !== y.source && JSON.stringify(x.source) !== JSON.stringify(y.source)) return false;
  }
  return true;
}

/** Index of the first entry at or after `key` in served order (strictly after it when `after`). */
export function seekServed(listing: ServedListing, key: { server: string; tool: string }, after: boolean): number {
  let lo = 0;
  let hi = listing.entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const order = compareServed(listing.entries[mid]!, key);
    if (order < 0 || (after && order === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
