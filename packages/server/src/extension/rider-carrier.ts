import { EXTENSION_ID, type ResponseFacet } from '@mcpproxy/schema';
import type { ListToolsRequest, ListToolsResult, Server, ServerContext } from '@modelcontextprotocol/server';
import { inBandError, internalInBandError } from './in-band-error.js';
import { clientDeclaration, isModernRequest, isNegotiated } from './negotiation.js';
import type { InBandVerdict, RequiredToolsSource } from './required-tools-source.js';
import { OffSurfaceReason, riderVerdict } from './wire-verdict.js';

/**
 * tools/list with the Shape A rider. The listing is always the core one (same scope, same page);
 * when the client negotiated the extension on this request and sent a rider, the verdict rides
 * the result's `_meta` of exactly this response. Not negotiated: the rider is ignored. Malformed:
 * -32602 and nothing evaluated. No honest verdict: -32603.
 */
export async function listToolsWithRider(server: Server, source: RequiredToolsSource, request: ListToolsRequest, ctx: ServerContext): Promise<ListToolsResult> {
  const cursor = request.params?.cursor;
  const listing = await source.listTools(cursor === undefined ? {} : { cursor }, ctx);
  const meta = ctx.mcpReq._meta as Readonly<Record<string, unknown>> | undefined;
  if (meta === undefined || !Object.hasOwn(meta, EXTENSION_ID)) return listing;
  if (!isNegotiated(clientDeclaration(server, ctx, EXTENSION_ID))) return listing;

  const outcome = await source.evaluate({ surface: 'mcp-rider', raw: meta[EXTENSION_ID] }, ctx);
  if (!outcome.ok) throw inBandError(outcome.error, 'rider');
  const facet = responseFacet(outcome.result);
  return {
    ...listing,
    _meta: { ...listing._meta, [EXTENSION_ID]: facet },
    // The result now varies per request: no shared cache may keep it, no client may reuse it.
    ...(isModernRequest(ctx) ? { ttlMs: 0, cacheScope: 'private' as const } : {}),
  };
}

function responseFacet(result: InBandVerdict): ResponseFacet {
  try {
    return {
      verdict: result.verdict,
      checked_at: result.checked_at,
      request_id: result.request_id,
      tools: result.tools.map(riderVerdict) as unknown as ResponseFacet['tools'],
    };
  } catch (error) {
    if (error instanceof OffSurfaceReason) throw internalInBandError(error.message);
    throw error;
  }
}
