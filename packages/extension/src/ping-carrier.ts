import { EXTENSION_ID } from '@mcpproxy/schema';
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { ExtensionExperiment } from './experimental-opt-in.js';
import type { InBandOutcome } from './in-band-outcome.js';
import { riderFacet, type RiderAnswer } from './rider-facet.js';

/** A ping result: empty, or (the ping_carrier experiment) the rider's facet in `_meta`. */
export interface PingResult {
  readonly _meta?: { readonly [EXTENSION_ID]: RiderAnswer };
  [key: string]: unknown;
}

/**
 * The ping_carrier experiment (docs/decisions/0001-shape-a-carrier.md): the Shape A rider on `ping`,
 * whose result is otherwise empty, so a check does not carry a tool listing. Only for a request that
 * asked for it; every other ping gets the empty result the SDK's own handler gives. The rider, its
 * negotiation, its faults and its activity record (surface mcp-rider) are the tools/list rider's;
 * only the carrier differs.
 */
export async function pingWithRider(server: Server, ctx: ServerContext, check: (rider: unknown) => Promise<InBandOutcome>, experiments: ReadonlySet<ExtensionExperiment>): Promise<PingResult> {
  if (!experiments.has('ping_carrier')) return {};
  const facet = await riderFacet(server, ctx, check, experiments);
  return facet === undefined ? {} : { _meta: { [EXTENSION_ID]: facet } };
}
