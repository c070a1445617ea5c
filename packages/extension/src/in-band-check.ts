import { dedupeToolIds, type Evaluation, type PreflightRequest } from '@mcpproxy/evaluator';
import type { PreflightActivityRecord } from '@mcpproxy/schema';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { InBandFailure, InBandOutcome, InBandSurface } from './in-band-outcome.js';
import { deepFreeze } from './deep-freeze.js';
import { activityMetadata, preflightActivityRecord, type PreflightActivityFacts, type PreflightActivityMetadata } from './preflight-activity-record.js';
import { freshRequestId } from './request-id.js';
import { findPinConflict } from './conflicting-pins.js';
import type { ListingReader, StateSource } from './state-source.js';
import { parseSurfaceRequest } from './surface-request.js';
import { InvalidToolState } from './tool-availability.js';
import { memoisedRiderRequest, type CheckedRequest } from './rider-request-memo.js';

/**
 * Receives the activity record of every evaluated in-band check before the answer goes out (the
 * payload spec asks for one per check). A throw or a rejection means the record was not kept: the
 * caller then gets no verdict (-32603, or a tool error in check mode).
 */
export type ActivitySink = (record: PreflightActivityRecord) => unknown;

export interface InBandCheckOptions {
  /** mcp-rider, the `pins` experiment (docs/decisions/0003): entries may carry pin_hash. */
  readonly pins?: boolean;
}

/**
 * One in-band check, the same for every in-band surface and every kind of server: validate the raw
 * request with the surface's strict schema (the raw list capped at 50 before dedup), deduplicate
 * it, evaluate it at the agent tier, hand the activity record to the sink, then answer. A request
 * that breaks the rules is refused before anything is evaluated; a state that cannot be read, or a
 * record that cannot be kept, gives no verdict at all, never a reduced one.
 */
export async function runInBandCheck(
  source: StateSource,
  activity: ActivitySink,
  surface: InBandSurface,
  raw: unknown,
  ctx: ServerContext,
  listing: ListingReader,
  options: InBandCheckOptions = {},
): Promise<InBandOutcome> {
  const checked = surface === 'mcp-rider' ? memoisedRiderRequest(raw, options.pins === true, () => checkedRequest(surface, raw, options)) : checkedRequest(surface, raw, options);
  if (!checked.ok) return checked;
  const request = checked.request;

  let evaluation: Evaluation;
  try {
    evaluation = await source.evaluate(request, ctx, listing, surface);
  } catch (error) {
    if (error instanceof InvalidToolState) return unavailable('invalid_tool_state', `${error.message}; no verdict was computed`);
    return unavailable('state_unavailable', "the server's state could not be read; no verdict was computed");
  }
  const checkedAt = new Date().toISOString();
  const requestId = freshRequestId();
  const facts: PreflightActivityFacts = {
    surface,
    request_id: requestId,
    timestamp: checkedAt,
    verdict: evaluation.verdict,
    tools: evaluation.tools,
    ...(surface === 'mcp-check' && isRecord(raw) ? { arguments: raw } : {}),
  };
  const record = preflightActivityRecord(facts, surface === 'mcp-check' ? activityMetadata(facts) : sharedMetadata(evaluation, facts));
  try {
    await activity(record);
  } catch {
    return unavailable('activity_unavailable', 'the activity record could not be written; no verdict was computed');
  }
  return { ok: true, result: { verdict: evaluation.verdict, checked_at: checkedAt, request_id: requestId, tools: evaluation.tools } };
}

/** The raw request validated with the surface's strict schema, checked for conflicting pins, deduplicated. */
function checkedRequest(surface: InBandSurface, raw: unknown, options: InBandCheckOptions): CheckedRequest {
  const parsed = parseSurfaceRequest(surface, raw, options);
  if (!parsed.ok) return { ok: false, error: { kind: 'request', ...parsed.error } };
  const { entries, policy } = parsed.request;
  const conflict = findPinConflict(entries);
  if (conflict !== undefined) {
    return { ok: false, error: { kind: 'request', code: 'conflicting_pins', message: `tool ${JSON.stringify(conflict.id)} is requested with two different pins`, path: `/tools/${conflict.index}` } };
  }
  // The policy is copied: a memoised request is frozen, and the caller's own rider must not be.
  const request: PreflightRequest = { tools: dedupeToolIds(entries), ...(policy === undefined ? {} : { policy: { ...policy } }) };
  return { ok: true, request };
}

/**
 * A memoised evaluation (frozen: shared by the answers to a repeated rider) has one record metadata
 * for all of them, deep-frozen: it holds only the verdict and the tools' statuses (no time, no id),
 * and a store that keeps the JSON text of frozen values serializes it once. Check mode's metadata
 * carries the caller's arguments and is never shared.
 */
const sharedMetadataOf = new WeakMap<Evaluation, PreflightActivityMetadata>();

function sharedMetadata(evaluation: Evaluation, facts: PreflightActivityFacts): PreflightActivityMetadata {
  if (!Object.isFrozen(evaluation)) return activityMetadata(facts);
  let metadata = sharedMetadataOf.get(evaluation);
  if (metadata === undefined) {
    metadata = deepFreeze(activityMetadata(facts));
    sharedMetadataOf.set(evaluation, metadata);
  }
  return metadata;
}

function unavailable(code: InBandFailure['code'], message: string): InBandOutcome {
  return { ok: false, error: { kind: 'unavailable', code, message, path: '' } };
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
