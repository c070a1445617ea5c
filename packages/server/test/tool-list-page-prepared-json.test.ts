// A tools/list page's prepared JSON is the page: for any listing, page size and cursor walk, the
// bytes parse to exactly what serializing the page object gives, the page cannot be changed after
// the fact, and anything built from it (a rider's copy) carries no prepared text.
import fc from 'fast-check';
import type { Tool } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { preparedJson } from '../src/mcp/prepared-json.js';
import { toolListPage } from '../src/mcp/tool-list-page.js';
import { servedListingArbitrary } from './served-listing-arbitrary.js';

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const toolArb = fc.record(
  {
    description: fc.string({ unit: 'binary', maxLength: 40 }),
    inputSchema: fc.record({ type: fc.constant('object' as const), properties: fc.dictionary(fc.string({ maxLength: 8 }), jsonValue, { maxKeys: 3 }) }),
    annotations: fc.record({ readOnlyHint: fc.boolean() }, { requiredKeys: [] }),
  },
  { requiredKeys: ['inputSchema'] },
);

/** A listing in served order: server names and tool names unique and sorted, as servedListing builds it. */
const listingArb = servedListingArbitrary(fc.string({ unit: 'binary', minLength: 1, maxLength: 6 }), toolArb, 25);

function parsePrepared(page: object): unknown {
  const bytes = preparedJson(page);
  expect(bytes).toBeInstanceOf(Buffer);
  return JSON.parse(bytes!.toString('utf8'));
}

describe('tools/list pages carry their prepared JSON', () => {
  it('the prepared bytes are the page, on every page of a cursor walk, and every entry is listed once', () => {
    fc.assert(
      fc.property(listingArb, fc.integer({ min: 1, max: 8 }), (listing, pageSize) => {
        const listed: string[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = toolListPage(listing, cursor, pageSize);
          expect(parsePrepared(page)).toEqual(JSON.parse(JSON.stringify(page)));
          // Asked again (another request, a new page object): the same bytes.
          expect(preparedJson(toolListPage(listing, cursor, pageSize))!.equals(preparedJson(page)!)).toBe(true);
          listed.push(...page.tools.map((t) => t.name));
          cursor = page.nextCursor;
          pages++;
        } while (cursor !== undefined);
        expect(listed).toEqual(listing.entries.map((e) => e.definition.name));
        expect(pages).toBe(Math.max(1, Math.ceil(listing.entries.length / pageSize)));
      }),
      { numRuns: 300 },
    );
  });

  it('a cursor that starts off the page grid (made up, or from another listing) is answered but not kept', () => {
    fc.assert(
      fc.property(listingArb, fc.integer({ min: 2, max: 8 }), fc.nat(), (listing, pageSize, pick) => {
        fc.pre(listing.entries.length > 1);
        // A cursor naming any entry that does not end a page.
        const offGrid = listing.entries.filter((_, i) => (i + 1) % pageSize !== 0 && i + 1 < listing.entries.length);
        fc.pre(offGrid.length > 0);
        const after = offGrid[pick % offGrid.length]!;
        const cursor = Buffer.from(JSON.stringify([1, after.server, after.tool]), 'utf8').toString('base64url');
        const page = toolListPage(listing, cursor, pageSize);
        expect(page.tools[0]!.name).toBe(listing.entries[listing.entries.indexOf(after) + 1]!.definition.name);
        expect(preparedJson(page)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('a page cannot be changed after it is marked; a copy (e.g. with a rider) has no prepared JSON', () => {
    fc.assert(
      fc.property(listingArb, (listing) => {
        const page = toolListPage(listing, undefined, 10_000);
        expect(Object.isFrozen(page)).toBe(true);
        expect(Object.isFrozen(page.tools)).toBe(true);
        expect(() => {
          (page as { _meta?: unknown })._meta = { x: 1 };
        }).toThrow(TypeError);
        expect(() => (page.tools as Tool[]).push({ name: 'extra', inputSchema: { type: 'object' } })).toThrow(TypeError);
        expect(preparedJson({ ...page, _meta: { rider: true } })).toBeUndefined();
        expect(preparedJson({ ...page })).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  it('a different listing (a new published state) never answers with an older listing text', () => {
    fc.assert(
      fc.property(listingArb, listingArb, (a, b) => {
        const first = toolListPage(a, undefined, 5);
        void preparedJson(first); // cached for listing a
        const second = toolListPage(b, undefined, 5);
        expect(parsePrepared(second)).toEqual(JSON.parse(JSON.stringify(second)));
      }),
      { numRuns: 200 },
    );
  });
});
