/**
 * The preflight seam of the REST surface: REST and the CLI (POST /api/v1/preflight) go through
 * `PreflightSeam.run`. The in-band surfaces (the tools/list rider, describe_tool check mode,
 * tools/resolve) go through @mcpproxy/extension, over the same published state; both validate, cap
 * and record with the extension's request rules and activity record (parseSurfaceRequest,
 * acceptRequestId, preflightActivityRecord), so each rule exists once. What is REST's own lives
 * here: tiers, pins, profiles, the evaluation memo, the wait_ms wait. Tier collapse lives in the
 * evaluator. The seam performs no upstream I/O and changes no gateway state (it only reads
 * `runtime.current()` and appends one activity record).
 *
 * API
 *   const preflight = createPreflightSeam({ runtime, activity: store });   // once, in gateway.ts
 *   const outcome = await preflight.run(call);
 *
 *   call (PreflightCall):
 *     surface    'rest' | 'cli'                     raw = the parsed JSON body (RestPreflightRequest)
 *     tier       'operator' (admin key, local socket) or 'agent' (agent token, or none)
 *     scope      the caller's scope (token allowed_servers, token profile pin, session profile);
 *                REST's body `profile` is validated here and becomes the scope's active_profile
 *     requestId  the caller's candidate (X-Request-Id); kept when it matches ^[a-zA-Z0-9_-]{1,256}$,
 *                else a fresh UUID
 *     signal     ends a wait_ms wait early (client went away)
 *
 *   outcome: { ok: true, result } | { ok: false, error }
 *     result (PreflightResult): { surface, tier, request_id, checked_at, verdict, tools, waited_ms?,
 *       state_version, activity_id }. `tools` are the evaluator's ToolResults, one per unique ID in
 *       order of first occurrence, `id` echoing the caller's string; render them for the surface.
 *       waited_ms is present exactly when the request carried wait_ms. The activity record has
 *       been written (synchronously, before `run` resolves).
 *     error (PreflightError): { code, kind, message, path, request_id, issues?, count?, max? }.
 *       kind 'request' (invalid_request, no_tools, too_many_tools, conflicting_pins, unknown_profile):
 *       REST 400. kind 'unavailable' (state_unavailable, activity_unavailable): REST 503. No record
 *       is written.
 *
 * Order: validate (the strict RestPreflightRequest validator; the raw-array cap of 100 first) ->
 * conflicting pins -> dedupe (evaluator's dedupeToolIds) -> read the published state (O(1)) ->
 * unknown profile -> evaluate -> [wait_ms] -> write the activity record -> result.
 *
 * Memo (calls that pass their body `text`): an identical text from the same tier and
 * scope on the same published version reuses that version's evaluation (evaluation-memo.ts), so the
 * steps up to "evaluate" are skipped; the request id, checked_at and the activity record are still
 * the call's own. Requests with wait_ms are never memoised.
 *
 * wait_ms: waits only while the verdict is degraded_retryable; re-evaluates when the
 * runtime publishes a new version, never more often than every 250 ms; stops as soon as the
 * verdict is no longer degraded_retryable or the time is up. A fixed pool of 4 wait slots: when
 * all are taken the request answers at once with waited_ms 0 (never queues). One record for the
 * final answer.
 */
import { dedupeToolIds, evaluate, type Evaluation, type PreflightRequest, type Scope, type Tier, type ToolResult } from '@mcpproxy/evaluator';
import { acceptRequestId, findPinConflict, parseSurfaceRequest, type SurfaceRequest } from '@mcpproxy/extension';
import type { Verdict } from '@mcpproxy/schema';
import type { Store } from '../store/store.js';
import { parseJsonText } from '../json/json-text.js';
import { EvaluationMemo, type MemoEntry } from './evaluation-memo.js';
import { restActivityRecord } from './rest-activity-record.js';
import { preflightError, type PreflightError } from './preflight-error.js';
import { delay } from './abortable-delay.js';
import { isoTime } from './iso-time.js';
import { nextStateChange, publishedVersion, type PreflightRuntime } from './state-change.js';
import { REAL_CLOCK, type WaitClock } from './wait-clock.js';
import { createWaitSlots, DEFAULT_WAIT_SLOTS, type WaitSlots } from './wait-slots.js';

export type RestSurface = 'rest' | 'cli';

export interface PreflightCall {
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
   * The request exactly as sent (the body's text), when the surface has it: the same text from the
   * same caller on the same snapshot version is answered from the evaluation memo.
   */
  readonly text?: string | undefined;
}

export interface PreflightResult {
  readonly surface: RestSurface;
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
    if (call.text === undefined || !memo.accepts(call.text)) return undefined;
    let version: number;
    try {
      version = runtime.current().snapshot.version;
    } catch {
      return undefined;
    }
    const key = memo.key(call.surface, tier, call.scope, call.text);
    return { key, version, entry: memo.get(version, key) };
  }

  /** Validation, pins, dedup, profile and the first evaluation: the request's own result, or the error that stops it. */
  function evaluateCall(call: PreflightCall, tier: Tier, requestId: string): { surfaceRequest: SurfaceRequest; request: PreflightRequest; scope: Scope; first: Evaluated } | PreflightError {
    let raw = call.raw;
    if (raw === undefined && call.text !== undefined) {
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

    const first = evaluateCurrent(request, tier, scope);
    if (first === undefined) return preflightError('state_unavailable', 'the gateway state could not be read; no verdict was computed', '', requestId);
    return { surfaceRequest, request, scope, first };
  }

  async function run(call: PreflightCall): Promise<PreflightOutcome> {
    const requestId = acceptRequestId(call.requestId);
    const tier = call.tier;

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
        const signal = typeof call.signal === 'function' ? call.signal() : call.signal;
        ({ evaluated, waitedMs } = await waitWhileRetryable(done.first, done.request, tier, done.scope, surfaceRequest.waitMs, signal));
      }
    }

    const checkedAt = isoTime(evaluated.at);
    const record = restActivityRecord({
      surface: call.surface,
      request_id: requestId,
      timestamp: checkedAt,
      verdict: evaluated.evaluation.verdict,
      tools: evaluated.evaluation.tools,
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

// A function, so that the compiler does not narrow `aborted` across the awaits in between.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
