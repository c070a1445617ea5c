import type { Scope } from '@mcpproxy/evaluator';
import { servedListing } from '../mcp/served-listing.js';
import type { PublishedState } from '../state/gateway-runtime.js';

const NO_BUILTINS = Object.freeze([]);

/**
 * The `server:tool` names /mcp serves to this scope, from the MCP surface's own listing (cached
 * per state and scope), so REST's `served` can never disagree with what an agent is listed.
 */
export function servedNames(state: PublishedState, scope: Scope): ReadonlySet<string> {
  const listing = servedListing(state, scope, NO_BUILTINS);
  let names = cache.get(listing);
  if (names === undefined) {
    names = new Set(listing.entries.map((entry) => `${entry.server}:${entry.tool}`));
    cache.set(listing, names);
  }
  return names;
}

const cache = new WeakMap<object, ReadonlySet<string>>();
