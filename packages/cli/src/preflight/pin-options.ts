import { toolIdKey } from '@mcpproxy/evaluator';
import type { RestToolRef } from '@mcpproxy/schema';
import { usageError } from '../cli-error.js';

/** sha256/v<N>:<64 hex digits>, the form `mcpproxy tools list` prints at the operator tier. */
const PIN_PATTERN = /^sha256\/v[1-9]\d*:[0-9a-f]{64}$/;

/**
 * The request's tools with their pins. `--pin id=hash` is checked before anything is sent: the
 * hash must have the pin form, the ID must be one of the requested IDs (compared by the key the
 * gateway deduplicates on: both halves trimmed), and one ID cannot carry two different pins.
 */
export function toolRefsWithPins(ids: readonly [string, ...string[]], pins: readonly string[]): [RestToolRef, ...RestToolRef[]] {
  const requested = new Set(ids.map(toolIdKey));
  const byId = new Map<string, string>();
  for (const pin of pins) {
    const at = pin.lastIndexOf('=');
    if (at <= 0) throw usageError(`--pin ${JSON.stringify(pin)}: expected <server:tool>=sha256/v<N>:<hex>`);
    const id = toolIdKey(pin.slice(0, at));
    const hash = pin.slice(at + 1).trim();
    if (!PIN_PATTERN.test(hash)) throw usageError(`--pin ${JSON.stringify(pin)}: the hash must look like sha256/v<N>:<64 lowercase hex digits> (see mcpproxy tools list)`);
    if (!requested.has(id)) throw usageError(`--pin ${JSON.stringify(pin)}: ${id} is not one of the requested tool ids`);
    const earlier = byId.get(id);
    if (earlier !== undefined && earlier !== hash) throw usageError(`conflicting pins for ${id}: ${earlier} and ${hash}`);
    byId.set(id, hash);
  }
  const withPin = (id: string): RestToolRef => {
    const pin = byId.get(toolIdKey(id));
    return pin === undefined ? { id } : { id, pin_hash: pin };
  };
  const [first, ...rest] = ids;
  return [withPin(first), ...rest.map(withPin)];
}
