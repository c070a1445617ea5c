import type { WordingValues } from './fill-wording.js';
import type { Tier } from './request.js';
import { parseToolHash } from './tool-hash.js';

export interface PinMismatch {
  /** hash_mismatch wording variant; undefined = the generic detail (agent tier, differing hex). */
  readonly variant?: 'unparseable' | 'no_stored_hash' | 'hash_schema_version' | 'differs_operator';
  readonly values: WordingValues;
}

/**
 * Gate 10. Every cause fails closed as hash_mismatch; only the wording tells them apart, and
 * only the operator tier may see the stored hash itself.
 */
export function checkPin(pin: string, stored: string | undefined, tier: Tier): PinMismatch | undefined {
  const pinned = parseToolHash(pin);
  if (pinned === undefined) return { variant: 'unparseable', values: {} };
  // A stored hash that does not parse is no usable hash either.
  const current = stored === undefined ? undefined : parseToolHash(stored);
  if (current === undefined || stored === undefined) return { variant: 'no_stored_hash', values: {} };
  if (pinned.version !== current.version) {
    return { variant: 'hash_schema_version', values: { pinned_version: pinned.version, current_version: current.version } };
  }
  if (pinned.hex === current.hex) return undefined;
  if (tier === 'operator') return { variant: 'differs_operator', values: { pinned: pin, current: stored } };
  return { values: {} };
}
