import type { WordingValues } from './fill-wording.js';
import type { Saturation } from './snapshot.js';
import type { UnavailableCause } from './unavailable-result.js';

/** server_saturated as a cause: the signal the upstream gave, and its Retry-After (a wording variant) when it sent one. */
export function saturationCause(saturation: Saturation, values: WordingValues): UnavailableCause {
  const filled: WordingValues = { ...values, overload_signal: saturation.signal };
  if (saturation.retry_after_s === undefined) return { code: 'server_saturated', values: filled };
  return { code: 'server_saturated', values: { ...filled, retry_after: String(saturation.retry_after_s) }, variant: 'retry_after' };
}
