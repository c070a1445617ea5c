import { toolIdKey, type RequestedTool } from '@mcpproxy/evaluator';

export interface PinConflict {
  /** Index in the raw list of the entry that contradicts an earlier one. */
  readonly index: number;
  readonly id: string;
}

/**
 * Two entries for one ID (by trimmed form) with different pins. An absent pin counts as a value:
 * `{id}` and `{id, pin_hash}` together are a conflict too, since either answer would ignore one.
 */
export function findPinConflict(entries: readonly RequestedTool[]): PinConflict | undefined {
  const first = new Map<string, string | undefined>();
  for (const [index, entry] of entries.entries()) {
    const key = toolIdKey(entry.id);
    if (!first.has(key)) first.set(key, entry.pin);
    else if (first.get(key) !== entry.pin) return { index, id: entry.id };
  }
  return undefined;
}
