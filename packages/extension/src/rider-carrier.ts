import { EXTENSION_ID } from '@mcpproxy/schema';
import type { ListToolsRequest, ListToolsResult, Server, ServerContext } from '@modelcontextprotocol/server';
import type { InBandOutcome } from './in-band-outcome.js';
import { isModernRequest } from './negotiation.js';
import type { OwnToolHandlers } from './own-tool-handlers.js';
import type { ListingReader } from './state-source.js';
import type { ExtensionExperiment } from './experimental-opt-in.js';
import { riderFacet, type RiderAnswer } from './rider-facet.js';

/**
 * tools/list with the Shape A rider. The listing is always the server's own (same caller, same
 * page); when the client negotiated the extension on this request and sent a rider, the verdict
 * (rider-facet.ts) rides the result's `_meta` of exactly this response. Not negotiated: the rider is
 * ignored. Malformed: -32602 and nothing evaluated. No honest verdict: -32603.
 */
export async function listToolsWithRider(
  server: Server,
  own: OwnToolHandlers,
  request: ListToolsRequest,
  ctx: ServerContext,
  check: (rider: unknown, listing: ListingReader) => Promise<InBandOutcome>,
  experiments: ReadonlySet<ExtensionExperiment>,
): Promise<ListToolsResult> {
  const cursor = request.params?.cursor;
  const page = await own.page(cursor, ctx);
  // The page at hand is the whole listing when it is the first and the last: no second read.
  const listing: ListingReader = () => own.all(ctx, cursor === undefined ? page : undefined);
  const facet = await riderFacet(server, ctx, (rider) => check(rider, listing), experiments);
  return facet === undefined ? page : carryFacet(page, facet, isModernRequest(ctx));
}

/**
 * The listing with the facet in its `_meta`: every member of the listing first, as it is (the same
 * values in the same order), then what the facet adds. A server that keeps a listing's JSON bytes can
 * therefore send this answer as those bytes with the added members spliced in, and serialize only
 * the facet (the gateway does).
 */
export function carryFacet(listing: ListToolsResult, facet: RiderAnswer, modern: boolean): ListToolsResult {
  return {
    ...listing,
    _meta: { ...listing._meta, [EXTENSION_ID]: facet },
    // The result now varies per request: no shared cache may keep it, no client may reuse it.
    ...(modern ? { ttlMs: 0, cacheScope: 'private' as const } : {}),
  };
}
