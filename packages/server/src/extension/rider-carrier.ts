import { EXTENSION_ID, type ResponseFacet } from '@mcpproxy/schema';
import type { ListToolsRequest, ListToolsResult, Server, ServerContext } from '@modelcontextprotocol/server';
import { isModernRequest } from './negotiation.js';
import type { RequiredToolsSource } from './required-tools-source.js';
import { riderFacet } from './rider-facet.js';

/**
 * tools/list with the Shape A rider. The listing is always the core one (same scope, same page);
 * when the client negotiated the extension on this request and sent a rider, the verdict
 * (rider-facet.ts) rides the result's `_meta` of exactly this response. Not negotiated: the rider is
 * ignored. Malformed: -32602 and nothing evaluated. No honest verdict: -32603.
 */
export async function listToolsWithRider(server: Server, source: RequiredToolsSource, request: ListToolsRequest, ctx: ServerContext): Promise<ListToolsResult> {
  const cursor = request.params?.cursor;
  const listing = await source.listTools(cursor === undefined ? {} : { cursor }, ctx);
  const facet = await riderFacet(server, source, ctx);
  return facet === undefined ? listing : carryFacet(listing, facet, isModernRequest(ctx));
}

/**
 * The listing with the facet in its `_meta`: every member of the listing first, as it is (the same
 * values in the same order), then what the facet adds. A server that keeps a listing's JSON bytes can
 * therefore send this answer as those bytes with the added members spliced in, and serialize only
 * the facet (the gateway does: prepared-json-splice.ts).
 */
export function carryFacet(listing: ListToolsResult, facet: ResponseFacet, modern: boolean): ListToolsResult {
  return {
    ...listing,
    _meta: { ...listing._meta, [EXTENSION_ID]: facet },
    // The result now varies per request: no shared cache may keep it, no client may reuse it.
    ...(modern ? { ttlMs: 0, cacheScope: 'private' as const } : {}),
  };
}
