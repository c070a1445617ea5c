import type { ErrorFacet } from '@mcpproxy/schema';
import type { ProtocolError } from '@modelcontextprotocol/server';

/**
 * The `error_facet` experiment (docs/decisions/0002-malformed-rider-severity.md): the facet that
 * rides the carrier's normal answer instead of failing it, for a client that asked for it. It is the
 * very JSON-RPC error the carrier call would otherwise have failed with (code, message, data), so a
 * client handles both alike; it carries no verdict, since nothing was evaluated.
 */
export function errorFacet(error: ProtocolError): ErrorFacet {
  return { error: { code: error.code, message: error.message, data: error.data } } as ErrorFacet;
}
