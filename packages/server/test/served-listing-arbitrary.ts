import fc from 'fast-check';
import type { Tool } from '@modelcontextprotocol/server';
import type { ServedEntry, ServedListing } from '../src/mcp/served-listing.js';

/**
 * Listings as servedListing builds them: (server, tool) pairs unique and in served order (server,
 * then tool, by code unit), each definition named `server:tool`, from names and tool shapes drawn by
 * the caller's arbitraries.
 */
export function servedListingArbitrary(name: fc.Arbitrary<string>, shape: fc.Arbitrary<Record<string, unknown>>, maxLength: number): fc.Arbitrary<ServedListing> {
  return fc
    .uniqueArray(fc.tuple(name, name, shape), { maxLength, selector: ([server, tool]) => `${server}\u0000${tool}` })
    .map((rows): ServedListing => {
      const sorted = [...rows].sort(([s1, t1], [s2, t2]) => (s1 < s2 ? -1 : s1 > s2 ? 1 : t1 < t2 ? -1 : t1 > t2 ? 1 : 0));
      const entries = sorted.map(([server, tool, toolShape]): ServedEntry => {
        const source = { ...toolShape, name: tool } as Tool;
        return { server, tool, source, definition: { ...source, name: `${server}:${tool}` } };
      });
      return { entries };
    });
}
