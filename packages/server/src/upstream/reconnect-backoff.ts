export interface BackoffPolicy {
  /** Delay before the first retry. */
  readonly initialDelayMs: number;
  /** No delay exceeds this. */
  readonly maxDelayMs: number;
}

/** The attempt number from which every policy waits its maxDelayMs (2^40 outgrows any ratio of delays). */
export const MAX_BACKOFF_EXPONENT = 40;

/**
 * Capped exponential backoff with "equal jitter": the n-th retry (n = 0, 1, ...) waits between
 * half and all of min(max, initial * 2^n). Half is kept so retries never bunch up at zero;
 * the random half spreads many upstreams that failed together (a network blip) apart.
 */
export function reconnectDelay(policy: BackoffPolicy, attempt: number, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempt, 0), MAX_BACKOFF_EXPONENT);
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** exponent);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
