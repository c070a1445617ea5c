import type { Saturation } from '@mcpproxy/evaluator';
import type { WaitClock } from '../preflight/wait-clock.js';
import { reconnectDelay } from './reconnect-backoff.js';
import type { BackoffPolicy } from './reconnect-backoff.js';

/** How a ready upstream said it is overloaded. */
export type OverloadSignal =
  | { readonly kind: 'http'; readonly status: 429 | 503; readonly retryAfterMs?: number }
  | { readonly kind: 'json_rpc'; readonly code: number };

/** This many windows in a row opened by a 503 without Retry-After, and the upstream is unhealthy instead. */
export const BARE_503_WINDOWS_TO_UNHEALTHY = 3;
/** No Retry-After holds calls back longer than this (an upstream asking for a day is not taken at its word). */
export const RETRY_AFTER_CAP_MS = 3_600_000;

export type OverloadOutcome =
  | { readonly kind: 'saturated'; readonly saturation: Saturation }
  | { readonly kind: 'unhealthy'; readonly reason: string }
  /** A window is already open: answers to requests sent before it opened change nothing. */
  | { readonly kind: 'ignored' };

export interface SaturationWindowOptions {
  readonly clock: WaitClock;
  /** Windows without a Retry-After: initial * 2^n, capped (the reconnect backoff's policy). */
  readonly backoff: BackoffPolicy;
  readonly random?: () => number;
  /** The window ran out on its own (the upstream may be called again). */
  readonly onEnd: () => void;
}

/**
 * The overload state of one upstream connection: a window during which the gateway sends the
 * upstream no calls, ended by the clock alone (nothing probes the upstream to find out sooner).
 * Its length is the upstream's Retry-After (capped) or a capped exponential backoff over the
 * windows in a row; a normal answer between windows resets both counts.
 */
export class SaturationWindow {
  private open: Saturation | undefined;
  private cancel: (() => void) | undefined;
  /** Windows in a row with no normal answer between them (the backoff's exponent). */
  private streak = 0;
  /** Of those, the last ones in a row opened by a 503 without Retry-After. */
  private bare503 = 0;

  constructor(private readonly options: SaturationWindowOptions) {}

  current(): Saturation | undefined {
    return this.open;
  }

  overloaded(signal: OverloadSignal): OverloadOutcome {
    if (this.open !== undefined) return { kind: 'ignored' };
    const retryAfterMs = signal.kind === 'http' ? signal.retryAfterMs : undefined;
    const bare503 = signal.kind === 'http' && signal.status === 503 && retryAfterMs === undefined;
    this.bare503 = bare503 ? this.bare503 + 1 : 0;
    if (this.bare503 >= BARE_503_WINDOWS_TO_UNHEALTHY) {
      const windows = this.bare503;
      this.reset();
      return { kind: 'unhealthy', reason: `answered 503 Service Unavailable without Retry-After in ${windows} backoff windows in a row` };
    }
    const ms = retryAfterMs === undefined ? reconnectDelay(this.options.backoff, this.streak, this.options.random) : Math.min(retryAfterMs, RETRY_AFTER_CAP_MS);
    this.streak += 1;
    const saturation: Saturation = { signal: signalText(signal), ...(retryAfterMs === undefined ? {} : { retry_after_s: Math.ceil(ms / 1000) }) };
    this.open = saturation;
    this.cancel = this.options.clock.setTimer(() => {
      this.open = undefined;
      this.cancel = undefined;
      this.options.onEnd();
    }, ms);
    return { kind: 'saturated', saturation };
  }

  /** The upstream answered a request normally: the next overload starts a fresh backoff. */
  answered(): void {
    this.streak = 0;
    this.bare503 = 0;
  }

  /** The connection went away: no window, no timer (the counts stay, a reconnect does not clear them). */
  close(): void {
    this.cancel?.();
    this.cancel = undefined;
    this.open = undefined;
  }

  /** Stopped or restarted by an operator: everything starts over. */
  reset(): void {
    this.close();
    this.answered();
  }
}

function signalText(signal: OverloadSignal): string {
  if (signal.kind === 'json_rpc') return `JSON-RPC error ${signal.code}`;
  return signal.status === 429 ? 'HTTP 429' : 'HTTP 503';
}
