// An answer built on a prepared tools/list page (the plain page, the page with a rider's `_meta`, the
// page with the 2026-07-28 encode fields) is sent as the page's bytes with the rest spliced in: for
// any listing, cursor, rider and revision, those bytes are exactly JSON.stringify of the message the
// SDK would have serialized, the page's bytes go out as they are (not copied), and a message that
// does not extend a page is never built from one.
import fc from 'fast-check';
import type { ListToolsResult } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
import { carryFacet } from '@mcpproxy/extension';
import { deepFreeze } from '../src/json/frozen-json.js';
import { preparedJson } from '../src/mcp/prepared-json.js';
import { splicedJson } from '../src/mcp/prepared-json-splice.js';
import type { ServedListing } from '../src/mcp/served-listing.js';
import { toolListPage } from '../src/mcp/tool-list-page.js';
import { servedListingArbitrary } from './served-listing-arbitrary.js';

/** Strings JSON.stringify has to escape: quotes, controls, astral and lone surrogates, and keys objects treat specially. */
const awkward = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('__proto__', 'constructor', 'toJSON', '0', '17', '"', '\\', '\u2028', '\ud800', '\udfff', '😀', ''),
);
const jsonValue = fc.jsonValue({ maxDepth: 3 });

const toolArb = fc.record(
  {
    description: awkward,
    inputSchema: fc.record({ type: fc.constant('object' as const), properties: fc.dictionary(awkward, jsonValue, { maxKeys: 3 }) }),
    annotations: fc.record({ readOnlyHint: fc.boolean(), openWorldHint: fc.boolean() }, { requiredKeys: [] }),
    _meta: fc.dictionary(awkward, jsonValue, { maxKeys: 2 }),
  },
  { requiredKeys: ['inputSchema'] },
);

/** A listing in served order, as servedListing builds it. */
const listingArb = servedListingArbitrary(awkward.filter((s) => s.length > 0), toolArb, 20);

/** A Shape A facet as riders produce them (ids echo the caller's strings, any wording). */
const facetArb = fc.record({
  verdict: fc.constantFrom('ready', 'degraded_retryable', 'blocked', 'unknown_ids'),
  checked_at: fc.constant('2026-12-03T07:00:00.000Z'),
  request_id: fc.uuid(),
  tools: fc.array(
    fc.oneof(
      fc.record({ id: awkward, status: fc.constant('ready') }),
      fc.record(
        { id: awkward, status: fc.constant('unavailable'), reason: fc.constantFrom('not_found', 'policy_filtered'), retryable: fc.boolean(), detail: awkward, remediation: awkward, did_you_mean: fc.array(awkward, { maxLength: 3 }) },
        { requiredKeys: ['id', 'status', 'reason', 'retryable'] },
      ),
    ),
    { minLength: 1, maxLength: 6 },
  ),
});

const idArb = fc.oneof(fc.integer(), awkward);

/** Members a later step may add after the page's own, in any order (undefined and functions are left out by JSON.stringify). */
const extraMembersArb = fc.array(fc.tuple(awkward, fc.oneof(jsonValue, fc.constant(undefined), fc.constant(() => 1))), { maxLength: 4 });

/** The 2026-07-28 encode steps as the SDK applies them: resultType, then the cache fields, then serverInfo in `_meta`. */
function modernEncoded(result: ListToolsResult): Record<string, unknown> {
  const typed: Record<string, unknown> = { ...result, resultType: 'complete' };
  const cached: Record<string, unknown> = { ...typed, ttlMs: typeof typed['ttlMs'] === 'number' ? typed['ttlMs'] : 0, cacheScope: typeof typed['cacheScope'] === 'string' ? typed['cacheScope'] : 'private' };
  const meta = cached['_meta'] as Record<string, unknown> | undefined;
  const serverInfo = { name: 'mcpproxy', version: '0.0.0' };
  return meta === undefined ? { ...cached, _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } } : { ...cached, _meta: { ...meta, 'io.modelcontextprotocol/serverInfo': serverInfo } };
}

/** The spliced pieces are JSON.stringify's bytes, and the page's prepared bytes are among them as they are, not copied. */
function expectSpliced(message: unknown, page: ListToolsResult): void {
  const pieces = splicedJson(message);
  expect(pieces).toBeDefined();
  expect(Buffer.concat(pieces!).toString('utf8')).toBe(JSON.stringify(message));
  const prepared = preparedJson(page)!;
  expect(pieces!.some((piece) => piece.buffer === prepared.buffer && piece.byteOffset === prepared.byteOffset)).toBe(true);
}

/** Every page of a cursor walk over the listing. */
function pages(listing: ServedListing, pageSize: number): ListToolsResult[] {
  const out: ListToolsResult[] = [];
  let cursor: string | undefined;
  do {
    const page = toolListPage(listing, cursor, pageSize);
    out.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return out;
}

describe('answers spliced from a prepared page are JSON.stringify of the message, byte for byte', () => {
  it('plain pages and pages with a rider, on 2025-11-25 and 2026-07-28, over every page of a cursor walk', () => {
    fc.assert(
      fc.property(listingArb, fc.integer({ min: 1, max: 6 }), facetArb, idArb, (listing, pageSize, facet, id) => {
        for (const page of pages(listing, pageSize)) {
          // A repeated rider's facet shares its wire verdicts, deep-frozen, across answers.
          const shared = { ...facet, tools: deepFreeze(structuredClone(facet.tools)) };
          const answers: unknown[] = [
            page,
            carryFacet(page, facet as never, false),
            carryFacet(page, shared as never, false),
            carryFacet(page, shared as never, false),
            modernEncoded(page),
            modernEncoded(carryFacet(page, facet as never, true)),
            modernEncoded(carryFacet(page, shared as never, true)),
          ];
          for (const result of answers) {
            // The SDK's response object puts `result` first; a hand-built one may not.
            expectSpliced({ result, jsonrpc: '2.0', id }, page);
            expectSpliced({ jsonrpc: '2.0', id, result }, page);
            expectSpliced(result, page);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('any members added after the page members, whatever their keys and values', () => {
    fc.assert(
      fc.property(listingArb, fc.integer({ min: 1, max: 6 }), extraMembersArb, idArb, (listing, pageSize, extra, id) => {
        const page = toolListPage(listing, undefined, pageSize);
        const result: Record<string, unknown> = { ...page };
        for (const [key, value] of extra) Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
        const message = { result, jsonrpc: '2.0', id };
        const spliced = splicedJson(message);
        // An added member may land before the page's own (an integer-like key is enumerated first),
        // replace one of them, or be a toJSON that JSON.stringify would call instead: then nothing is
        // spliced and the SDK serializes the message as usual.
        if (spliced !== undefined) expect(Buffer.concat(spliced).toString('utf8')).toBe(JSON.stringify(message));
        const pageKeys = Object.keys(page);
        const extendsPage =
          Object.keys(result).slice(0, pageKeys.length).every((key, i) => key === pageKeys[i] && result[key] === (page as Record<string, unknown>)[key]) &&
          typeof result['toJSON'] !== 'function';
        expect(spliced !== undefined).toBe(extendsPage);
      }),
      { numRuns: 300 },
    );
  });

  it('frozen values and nested records among the added members, whatever their keys and values', () => {
    // Added members down to the facet's depth: records (not frozen: walked member by member) holding
    // deep-frozen values (written from text kept per value), undefined and functions (left out).
    const leaf = fc.oneof(jsonValue, fc.constant(undefined), fc.constant(() => 1));
    const nested = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        jsonValue.map((value) => (typeof value === 'object' && value !== null ? deepFreeze(value) : value)),
        fc.dictionary(awkward, tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(listingArb, fc.array(fc.tuple(awkward, nested), { maxLength: 3 }), idArb, (listing, extra, id) => {
        const page = toolListPage(listing, undefined, 3);
        const result: Record<string, unknown> = { ...page };
        for (const [key, value] of extra) Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
        const message = { jsonrpc: '2.0', id, result };
        for (let i = 0; i < 2; i++) {
          const spliced = splicedJson(message);
          if (spliced !== undefined) expect(Buffer.concat(spliced).toString('utf8')).toBe(JSON.stringify(message));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a rider's shared wire verdicts are serialized once for all the answers that carry them", () => {
    const listing: ServedListing = { entries: [{ server: 'a', tool: 'x', definition: { name: 'a:x', inputSchema: { type: 'object' } }, source: { name: 'x', inputSchema: { type: 'object' } } }] };
    const page = toolListPage(listing, undefined, 10);
    const tools = deepFreeze([{ id: 'a:x', status: 'ready' }, { id: 'a:y', status: 'unavailable', reason: 'not_found', retryable: false }]);
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const texts = [1, 2, 3].map((n) => {
        const facet = { verdict: 'unknown_ids', checked_at: `2026-12-03T07:00:0${n}.000Z`, request_id: `id-${n}`, tools };
        const message = { jsonrpc: '2.0', id: n, result: carryFacet(page, facet as never, false) };
        const text = Buffer.concat(splicedJson(message)!).toString('utf8');
        expect(text).toBe(JSON.stringify(message));
        return text;
      });
      expect(new Set(texts).size).toBe(3);
      // Besides the three checks above: the shared list itself, once, and nothing that holds it.
      const holds = (value: unknown): boolean => value === tools || (typeof value === 'object' && value !== null && Object.values(value).some(holds));
      const serializing = stringify.mock.calls.filter(([value]) => holds(value));
      expect(serializing.filter(([value]) => value === tools)).toHaveLength(1);
      expect(serializing.filter(([value]) => value !== tools && !Object.hasOwn(value as object, 'jsonrpc'))).toHaveLength(0);
    } finally {
      stringify.mockRestore();
    }
  });

  it('a message that does not start with a page\'s own members is not built from its bytes', () => {
    fc.assert(
      fc.property(listingArb.filter((l) => l.entries.length > 1), fc.integer({ min: 1, max: 3 }), facetArb, (listing, pageSize, facet) => {
        const page = toolListPage(listing, undefined, pageSize);
        const carried = carryFacet(page, facet as never, true);
        const variants: unknown[] = [
          { ...carried, tools: [...page.tools] }, // the same tools in another array (anyone may have changed it)
          { _meta: carried._meta, ...page }, // the page's members after another one
          { ...carried, tools: page.tools.slice(1) },
          ...(page.nextCursor === undefined ? [] : [{ ...carried, nextCursor: `${page.nextCursor}x` }, { tools: page.tools, _meta: carried._meta }]),
        ];
        for (const result of variants) expect(splicedJson({ result, jsonrpc: '2.0', id: 1 })).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('messages without a prepared part are left to the usual serialization', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        expect(splicedJson({ result: value, jsonrpc: '2.0', id: 1 })).toBeUndefined();
        expect(splicedJson(value)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
