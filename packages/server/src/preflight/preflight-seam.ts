/**
 * The preflight seam: the ONE function every surface calls to turn a raw request into a verdict.
 * REST and the CLI (POST /api/v1/preflight), the tools/list rider, describe_tool check mode and
 * tools/resolve all go through `PreflightSeam.run`; validation, caps, dedup, request ids, the
 * wait_ms wait and the activity record live here and nowhere else. Tier collapse lives in the
 * evaluator. The seam performs no upstream I/O and changes no gateway state (it only reads
 * `runtime.current()` and appends one activity record).
 *
 * API
 *   const preflight = createPreflightSeam({ runtime, activity: store });   // once, in gateway.ts
 *   const outcome = await preflight.run(call);
 *
 *   call (PreflightCall):
 *     surface    'rest' | 'cli'                     raw = the parsed JSON body (RestPreflightRequest)
 *                'mcp-rider'                        raw = params._meta["app.mcpproxy/required-tools"] (RequestRider)
 *                'mcp-check'                        raw = the describe_tool arguments (CheckModeArguments)
 *                'mcp-resolve'                      raw = { name: '<server:tool>', policy? } (the resolved tool's name, and the
 *                                                   annotation policy of a negotiated rider on the request)
 *     tier       rest/cli only; the in-band surfaces always evaluate at the 'agent' tier
 *     scope      the caller's scope (token allowed_servers, token profile pin, session profile);
 *                REST's body `profile` is validated here and becomes the scope's active_profile
 *     requestId  the caller's candidate (X-Request-Id); kept when it matches ^[a-zA-Z0-9_-]{1,256}$,
 *                else a fresh UUID
 *     signal     rest/cli: ends a wait_ms wait early (client went away)
 *
 *   outcome: { ok: true, result } | { ok: false, error }
 *     result (PreflightResult): { surface, tier, request_id, checked_at, verdict, tools, waited_ms?,
 *       state_version, activity_id }. `tools` are the evaluator's ToolResults, one per unique ID in
 *       order of first occurrence, `id` echoing the caller's string; render them for the surface.
 *       waited_ms is present exactly when the request carried wait_ms. The activity record has
 *       been written (synchronously, before `run` resolves).
 *     error (PreflightError): { code, kind, message, path, request_id, issues?, count?, max? }.
 *       kind 'request' (invalid_request, no_tools, too_many_tools, conflicting_pins, unknown_profile):
 *       REST 400, MCP -32602 / argument error. kind 'unavailable' (state_unavailable,
 *       activity_unavailable): REST 503, MCP -32603 / "no verdict was computed". No record is written.
 *
 * Order: validate (strict generated validator of the surface; raw-array cap first: REST 100,
 * rider/check 50) -> conflicting pins -> dedupe (evaluator's dedupeToolIds) -> read the published
 * state (O(1)) -> unknown profile -> evaluate -> [wait_ms] -> write the activity record -> result.
 *
 * Memo (REST and CLI calls that pass their body `text`, and tools/list riders, by their JSON text): an
 * identical text from the same surface, tier and scope on the same published version reuses that
 * version's evaluation (evaluation-memo.ts), so the steps up to "evaluate" are skipped; the request
 * id, checked_at and the activity record are still the call's own. Requests with wait_ms are never
 * memoised.
 *
 * wait_ms (REST only): waits only while the verdict is degraded_retryable; re-evaluates when the
 * runtime publishes a new version, never more often than every 250 ms; stops as soon as the
 * verdict is no longer degraded_retryable or the time is up. A fixed pool of 4 wait slots: when
 * all are taken the request answers at once with waited_ms 0 (never queues). One record for the
 * final answer.
 */
import { aggregateVerdict, dedupeToolIds, evaluate, evaluateHostTool, type Evaluation, type PreflightRequest, type Scope, type Tier, type ToolAnnotations, type ToolResult } from '@mcpproxy/evaluator';
import type { Surface, Verdict } from '@mcpproxy/schema';
import type { Store } from '../store/store.js';
import { parseJsonText } from '../json/json-text.js';
import { findPinConflict } from './conflicting-pins.js';
import { EvaluationMemo, type MemoEntry } from './evaluation-memo.js';
import { preflightActivityRecord } from './preflight-activity-record.js';
import { preflightError, type PreflightError } from './preflight-error.js';
import { acceptRequestId } from './request-id.js';
import { delay } from './abortable-delay.js';
import { nextStateChange, publishedVersion, type PreflightRuntime } from './state-change.js';
import { parseSurfaceRequest, type SurfaceRequest } from './surface-request.js';
import { REAL_CLOCK, type WaitClock } from './wait-clock.js';
import { createWaitSlots, DEFAULT_WAIT_SLOTS, type WaitSlots } from './wait-slots.js';

export type RestSurface = 'rest' | 'cli';
export type InBandSurface = 'mcp-rider' | 'mcp-check' | 'mcp-resolve';

export interface RestPreflightCall {
  readonly surface: RestSurface;
  /**
   * The parsed body. It may be left out when `text` is given: the seam then parses the text only if
   * the memo does not already know it (a repeated body skips JSON.parse as well as validation), and a
   * text that is not one JSON value is `invalid_json`.
   */
  readonly raw?: unknown;
  readonly tier: Tier;
  readonly scope: Scope;
  readonly requestId?: string | undefined;
  /** Ends a wait_ms wait early; a function is called only when the request does wait. */
  readonly signal?: AbortSignal | (() => AbortSignal) | undefined;
  /**
   * The request exactly as sent (REST: the body's text), when the surface has it: the same text from
   * the same caller on the same snapshot version is answered from the evaluation memo.
   */
  readonly text?: string | undefined;
}

export interface InBandPreflightCall {
  readonly surface: InBandSurface;
  readonly raw: unknown;
  readonly scope: Scope;
  readonly requestId?: string | undefined;
  /**
   * mcp-resolve of a tool the host serves itself (the gateway's describe_tool) rather than an
   * upstream: its annotations. Nothing of the gateway's state applies to it; the annotation policy
   * alone can exclude it (evaluateHostTool). Validation and the activity record are as for any resolve.
   */
  readonly hostTool?: { readonly annotations?: ToolAnnotations };
}

export type PreflightCall = RestPreflightCall | InBandPreflightCall;

export interface PreflightResult {
  readonly surface: Surface;
  readonly tier: Tier;
  readonly request_id: string;
  /** ISO 8601: when the state the verdict describes was read. */
  readonly checked_at: string;
  readonly verdict: Verdict;
  readonly tools: readonly ToolResult[];
  readonly waited_ms?: number;
  /** The published snapshot version the verdict was computed on. */
  readonly state_version: number;
  /** The id of the activity record written for this verdict. */
  readonly activity_id: number;
}

export type PreflightOutcome = { readonly ok: true; readonly result: PreflightResult } | { readonly ok: false; readonly error: PreflightError };

export interface PreflightSeam {
  run(call: PreflightCall): Promise<PreflightOutcome>;
  /** The wait_ms slots (observable for tests and diagnostics). */
  readonly waitSlots: WaitSlots;
}

export interface PreflightSeamOptions {
  readonly runtime: PreflightRuntime;
  readonly activity: Pick<Store, 'appendActivity'>;
  /** Concurrent wait_ms waits (default 4). */
  readonly waitSlots?: number;
  /** Minimum spacing of evaluations while waiting (default 250 ms). */
  readonly minReevaluateMs?: number;
  /** The time waits run on, and checked_at is read from (default: the real one). */
  readonly clock?: WaitClock;
}

export const MIN_REEVALUATE_MS = 250;

interface Evaluated {
  readonly evaluation: Evaluation;
  readonly version: number;
  readonly at: number;
}

export function createPreflightSeam(options: PreflightSeamOptions): PreflightSeam {
  const { runtime, activity } = options;
  const clock = options.clock ?? REAL_CLOCK;
  const now = () => clock.now();
  const spacing = options.minReevaluateMs ?? MIN_REEVALUATE_MS;
  const waitSlots = createWaitSlots(options.waitSlots ?? DEFAULT_WAIT_SLOTS);
  const memo = new EvaluationMemo();

  function evaluateCurrent(request: PreflightRequest, tier: Tier, scope: Scope): Evaluated | undefined {
    try {
      const state = runtime.current();
      return { evaluation: evaluate(state.prepared, request, { tier, scope }), version: state.snapshot.version, at: now() };
    } catch {
      return undefined;
    }
  }

  function evaluateHost(request: PreflightRequest, annotations: ToolAnnotations | undefined): Evaluated | undefined {
    try {
      const tools = request.tools.map((requested) => evaluateHostTool(requested.id, annotations, request.policy));
      return { evaluation: { verdict: aggregateVerdict(tools), tools }, version: runtime.current().snapshot.version, at: now() };
    } catch {
      return undefined;
    }
  }

  async function waitWhileRetryable(
    first: Evaluated,
    request: PreflightRequest,
    tier: Tier,
    scope: Scope,
    waitMs: number,
    signal: AbortSignal | undefined,
  ): Promise<{ evaluated: Evaluated; waitedMs: number }> {
    const start = now();
    if (waitMs <= 0 || first.evaluation.verdict !== 'degraded_retryable') return { evaluated: first, waitedMs: 0 };
    const release = waitSlots.tryAcquire();
    if (release === undefined) return { evaluated: first, waitedMs: 0 };
    const deadline = start + waitMs;
    let current = first;
    try {
      while (current.evaluation.verdict === 'degraded_retryable' && !isAborted(signal)) {
        const remaining = deadline - now();
        if (remaining <= 0) break;
        await nextStateChange(runtime, clock, current.version, remaining, signal);
        // Timed out or aborted with nothing published: the same state gives the same verdict.
        if (publishedVersion(runtime) === current.version) break;
        // Never evaluate more often than every `spacing` ms, even for a final look at the deadline: a
        // change that cannot be looked at before the deadline cannot change the answer, so answer now
        // rather than hold the caller until the deadline for the same verdict.
        const earliest = current.at + spacing;
        if (earliest > deadline) break;
        await delay(clock, earliest - now(), signal);
        if (isAborted(signal)) break;
        const next = evaluateCurrent(request, tier, scope);
        // A state that cannot be read mid-wait: answer with the last verdict that could be computed.
        if (next === undefined) break;
        current = next;
      }
    } finally {
      release();
    }
    const end = now();
    // The verdict still describes the published state at the moment of answering.
    const evaluated = publishedVersion(runtime) === current.version ? { ...current, at: end } : current;
    return { evaluated, waitedMs: Math.min(waitMs, Math.max(0, end - start)) };
  }

  /** The memo key and entry of a call that carries its text, when the state can be read. */
  function recall(call: PreflightCall, tier: Tier): { key: string; version: number; entry: MemoEntry | undefined } | undefined {
    const text = memoText(call);
    if (text === undefined || !memo.accepts(text)) return undefined;
    let version: number;
    try {
      version = runtime.current().snapshot.version;
    } catch {
      return undefined;
    }
    const key = memo.key(call.surface, tier, call.scope, text);
    return { key, version, entry: memo.get(version, key) };
  }

  /** Validation, pins, dedup, profile and the first evaluation: the request's own result, or the error that stops it. */
  function evaluateCall(call: PreflightCall, tier: Tier, requestId: string): { surfaceRequest: SurfaceRequest; request: PreflightRequest; scope: Scope; first: Evaluated } | PreflightError {
    let raw = call.raw;
    if (raw === undefined && isRestCall(call) && call.text !== undefined) {
      const json = parseJsonText(call.text);
      if (!json.ok) return preflightError('invalid_json', json.message, '', requestId);
      raw = json.value;
    }
    const parsed = parseSurfaceRequest(call.surface, raw);
    if (!parsed.ok) {
      const { code, message, path, ...extra } = parsed.error;
      return preflightError(code, message, path, requestId, extra);
    }
    const surfaceRequest: SurfaceRequest = parsed.request;
    const conflict = findPinConflict(surfaceRequest.entries);
    if (conflict !== undefined) {
      return preflightError('conflicting_pins', `tool ${JSON.stringify(conflict.id)} is requested with two different pins`, `/tools/${conflict.index}`, requestId);
    }
    const request: PreflightRequest = {
      tools: dedupeToolIds(surfaceRequest.entries),
      ...(surfaceRequest.policy === undefined ? {} : { policy: surfaceRequest.policy }),
    };

    let scope = call.scope;
    if (surfaceRequest.profile !== undefined) {
      let exists: boolean;
      try {
        exists = runtime.current().snapshot.profiles.has(surfaceRequest.profile);
      } catch {
        return preflightError('state_unavailable', 'the gateway state could not be read; no verdict was computed', '', requestId);
      }
      if (!exists) return preflightError('unknown_profile', `unknown profile ${JSON.stringify(surfaceRequest.profile)}`, '/profile', requestId);
      scope = { ...scope, active_profile: surfaceRequest.profile };
    }

    const host = isRestCall(call) ? undefined : call.hostTool;
    const first = host === undefined ? evaluateCurrent(request, tier, scope) : evaluateHost(request, host.annotations);
    if (first === undefined) return preflightError('state_unavailable', 'the gateway state could not be read; no verdict was computed', '', requestId);
    return { surfaceRequest, request, scope, first };
  }

  async function run(call: PreflightCall): Promise<PreflightOutcome> {
    const requestId = acceptRequestId(call.requestId);
    const tier: Tier = isRestCall(call) ? call.tier : 'agent';

    const recalled = recall(call, tier);
    let surfaceRequest: SurfaceRequest;
    let evaluated: Evaluated;
    let waitedMs = 0;
    const entry = recalled?.entry;
    if (recalled !== undefined && entry !== undefined) {
      surfaceRequest = entry.surfaceRequest;
      evaluated = { evaluation: entry.evaluation, version: recalled.version, at: now() };
    } else {
      const done = evaluateCall(call, tier, requestId);
      if ('code' in done) return { ok: false, error: done };
      surfaceRequest = done.surfaceRequest;
      if (surfaceRequest.waitMs === undefined) {
        evaluated = done.first;
        if (recalled !== undefined && done.first.version === recalled.version) {
          memo.set(recalled.version, recalled.key, { surfaceRequest, evaluation: done.first.evaluation });
        }
      } else {
        const signal = isRestCall(call) ? (typeof call.signal === 'function' ? call.signal() : call.signal) : undefined;
        ({ evaluated, waitedMs } = await waitWhileRetryable(done.first, done.request, tier, done.scope, surfaceRequest.waitMs, signal));
      }
    }

    const checkedAt = new Date(evaluated.at).toISOString();
    const record = preflightActivityRecord({
      surface: call.surface,
      request_id: requestId,
      timestamp: checkedAt,
      verdict: evaluated.evaluation.verdict,
      tools: evaluated.evaluation.tools,
      ...(call.surface === 'mcp-check' && isRecord(call.raw) ? { arguments: call.raw } : {}),
    });
    let activityId: number;
    try {
      activityId = (await activity.appendActivity(record)).id;
    } catch {
      return { ok: false, error: preflightError('activity_unavailable', 'the activity record could not be written; no verdict was computed', '', requestId) };
    }
    return {
      ok: true,
      result: {
        surface: call.surface,
        tier,
        request_id: requestId,
        checked_at: checkedAt,
        verdict: evaluated.evaluation.verdict,
        tools: evaluated.evaluation.tools,
        ...(surfaceRequest.waitMs === undefined ? {} : { waited_ms: waitedMs }),
        state_version: evaluated.version,
        activity_id: activityId,
      },
    };
  }

  return { run, waitSlots };
}

/**
 * The text a call is memoised by: REST's body as sent; a rider (an agent harness sends the same one
 * before every job, as it preflights the same body over REST) as its JSON, the parsed value written
 * back, which costs a small fraction of validating and evaluating it. Check mode and resolve are not
 * memoised.
 */
function memoText(call: PreflightCall): string | undefined {
  if (isRestCall(call)) return call.text;
  if (call.surface !== 'mcp-rider') return undefined;
  // A rider is parsed JSON, so this cannot throw or give undefined; the guard keeps any other caller safe.
  try {
    const text: unknown = JSON.stringify(call.raw);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

function isRestCall(call: PreflightCall): call is RestPreflightCall {
  return call.surface === 'rest' || call.surface === 'cli';
}

// A function, so that the compiler does not narrow `aborted` across the awaits in between.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
