import type { Client } from '@modelcontextprotocol/client';
import { RequiredToolsUnavailableError } from './preflight-error.js';
import type { PreflightOptions, PreflightResult } from './preflight-result.js';
import { preflight } from './preflight.js';

/** The time requireTools waits on: the real one by default; a scheduler of your own, or a test's. */
export interface RequireToolsClock {
  /** Milliseconds. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface RequireToolsOptions extends PreflightOptions {
  /**
   * While the verdict is degraded_retryable (servers still starting, reconnecting), check again
   * with exponential backoff until this many ms have passed. 0 or absent: check once.
   */
  readonly waitMs?: number;
  /** First backoff delay (default 250 ms), doubled each time up to maxDelayMs (default 2000 ms). */
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Default: the real clock (Date.now and setTimeout). */
  readonly clock?: RequireToolsClock;
}

const REAL_CLOCK: RequireToolsClock = { now: () => Date.now(), sleep };

/**
 * For a harness that must not start (or spend a model token) without its tools: resolves with the
 * ready result, or throws RequiredToolsUnavailableError listing every unavailable tool and why.
 * Carriage failures surface as the PreflightError of `preflight`.
 */
export function requireTools(client: Client, ids: readonly string[], options: RequireToolsOptions = {}): Promise<PreflightResult> {
  return requireReady(() => preflight(client, ids, options), options);
}

/**
 * The waiting rule of requireTools over any preflight (the runtime adapters pass theirs): ready
 * resolves, degraded_retryable checks again with backoff until `waitMs`, anything else throws
 * RequiredToolsUnavailableError.
 */
export async function requireReady(check: () => Promise<PreflightResult>, options: RequireToolsOptions = {}): Promise<PreflightResult> {
  const clock = options.clock ?? REAL_CLOCK;
  const deadline = clock.now() + Math.max(0, options.waitMs ?? 0);
  let delay = Math.max(1, options.initialDelayMs ?? 250);
  const maxDelay = Math.max(delay, options.maxDelayMs ?? 2000);
  for (;;) {
    const result = await check();
    if (result.verdict === 'ready') return result;
    const left = deadline - clock.now();
    if (result.verdict !== 'degraded_retryable' || left <= 0) throw new RequiredToolsUnavailableError(result);
    await clock.sleep(Math.min(delay, left), options.signal);
    delay = Math.min(delay * 2, maxDelay);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
