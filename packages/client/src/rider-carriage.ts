import { checkValue, EXTENSION_ID, lenientValidators, MAX_TOOLS, type Policy, type RequestRider } from '@mcpproxy/schema';
import type { CarriageAnswer } from './carriage-answer.js';
import type { CarriageRequestOptions, RiderRoute } from './carriage-client.js';
import { jsonRpcCode } from './json-rpc-code.js';
import { messageOf } from './message-of.js';

/**
 * Shape A: one tools/list carrying the rider, the verdict read from the result's
 * `_meta["app.mcpproxy/required-tools"]`. An answer without a facet means the server did not
 * negotiate the extension on this request (it ignored the rider, as core MCP says it may).
 */
export async function riderPreflight(send: Extract<RiderRoute, { ok: true }>['send'], ids: readonly string[], policy: Policy | undefined, options: CarriageRequestOptions): Promise<CarriageAnswer> {
  if (ids.length > MAX_TOOLS) return { ok: false, reason: `the rider carries at most ${MAX_TOOLS} ids (${ids.length} given)` };
  const rider: RequestRider = { tools: ids.map((id) => ({ id })) as unknown as RequestRider['tools'], ...(policy === undefined ? {} : { policy }) };
  let result: Record<string, unknown>;
  try {
    result = await send(rider, options);
  } catch (error) {
    const code = jsonRpcCode(error);
    return { ok: false, reason: `tools/list with the rider failed${code === undefined ? '' : ` (${code})`}: ${messageOf(error)}` };
  }
  const meta = result['_meta'];
  const facet = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>)[EXTENSION_ID] : undefined;
  if (facet === undefined) return { ok: false, reason: 'the tools/list answer carries no facet (the extension was not negotiated on this request)' };
  const checked = checkValue(lenientValidators.ResponseFacet, facet);
  if (!checked.ok) return { ok: false, reason: `the facet is not a valid ResponseFacet: ${checked.issues.map((i) => `${i.path || '/'} ${i.message}`).join('; ')}` };
  const { verdict, checked_at, request_id, tools } = checked.value;
  return { ok: true, answer: { verdict, checked_at, request_id, tools } };
}
