import type { ToolResult } from '@mcpproxy/evaluator';
import { EXTENSION_ID, type ErrorFacet, type PinnedResponseFacet, type ResponseFacet } from '@mcpproxy/schema';
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { deepFreeze } from './deep-freeze.js';
import { errorFacet } from './error-facet.js';
import { inBandError, internalInBandError } from './in-band-error.js';
import type { InBandOutcome, InBandVerdict } from './in-band-outcome.js';
import { clientDeclaration, isNegotiated } from './negotiation.js';
import type { ExtensionExperiment } from './experimental-opt-in.js';
import { OffSurfaceReason, pinnedRiderVerdict, riderVerdict } from './wire-verdict.js';

/** What answers a rider: its verdict, the verdict of a pinned rider (`pins`), or the refusal of a malformed one (`error_facet`). */
export type RiderAnswer = ResponseFacet | PinnedResponseFacet | ErrorFacet;

/**
 * The Shape A facet a tools/list request asks for, computed apart from how it is carried
 * (rider-carrier.ts): undefined when the request has no rider or did not negotiate the extension
 * (the rider is then ignored); otherwise the verdict of the rider, as `check` evaluated and
 * recorded it. A malformed rider is -32602 and nothing is evaluated; no honest verdict is -32603.
 * `experiments` are the prototypes this request may use (experimental-opt-in.ts): with `pins`, the
 * rider was read as a pinned one and its verdicts may say hash_mismatch; with `error_facet`, a
 * malformed rider is answered by the carrier's normal answer and an error facet instead of -32602.
 */
export function riderFacet(
  server: Server,
  ctx: ServerContext,
  check: (rider: unknown) => Promise<InBandOutcome>,
  experiments: ReadonlySet<ExtensionExperiment>,
): Promise<RiderAnswer | undefined> {
  return declaredRiderFacet(ctx.mcpReq._meta, () => clientDeclaration(server, ctx, EXTENSION_ID), check, experiments);
}

/**
 * {@link riderFacet} for a request's `_meta` and the client's declaration of the extension on it
 * (read only when the request carries a rider): the same answer, for a caller that serves the
 * request without an SDK server instance (RequiredToolsExtension.modernListing).
 */
export async function declaredRiderFacet(
  requestMeta: unknown,
  declaration: () => unknown,
  check: (rider: unknown) => Promise<InBandOutcome>,
  experiments: ReadonlySet<ExtensionExperiment>,
): Promise<RiderAnswer | undefined> {
  const meta = requestMeta as Readonly<Record<string, unknown>> | undefined;
  if (meta === undefined || !Object.hasOwn(meta, EXTENSION_ID)) return undefined;
  if (!isNegotiated(declaration())) return undefined;
  const outcome = await check(meta[EXTENSION_ID]);
  if (!outcome.ok) {
    const error = inBandError(outcome.error, 'rider');
    if (outcome.error.kind === 'request' && experiments.has('error_facet')) return errorFacet(error);
    throw error;
  }
  return responseFacet(outcome.result, experiments.has('pins'));
}

function responseFacet(result: InBandVerdict, pinned: boolean): RiderAnswer {
  try {
    return {
      verdict: result.verdict,
      checked_at: result.checked_at,
      request_id: result.request_id,
      tools: pinned ? (result.tools.map(pinnedRiderVerdict) as unknown as ResponseFacet['tools']) : wireTools(result.tools),
    };
  } catch (error) {
    if (error instanceof OffSurfaceReason) throw internalInBandError(error.message);
    throw error;
  }
}

/**
 * The wire verdicts of a memoised evaluation (frozen: the memo shares it between answers) are made
 * once and shared the same way, deep-frozen, so that every answer to a repeated rider carries the
 * same tools value: mapping it again costs a rider as much as the memo saved, and a server that keeps
 * the JSON text of frozen values (the gateway's splice) serializes it once. Anything else is mapped
 * per answer.
 */
const sharedWireTools = new WeakMap<readonly ToolResult[], ResponseFacet['tools']>();

function wireTools(tools: readonly ToolResult[]): ResponseFacet['tools'] {
  if (!Object.isFrozen(tools)) return tools.map(riderVerdict) as unknown as ResponseFacet['tools'];
  let wire = sharedWireTools.get(tools);
  if (wire === undefined) {
    wire = deepFreeze(tools.map(riderVerdict)) as unknown as ResponseFacet['tools'];
    sharedWireTools.set(tools, wire);
  }
  return wire;
}
