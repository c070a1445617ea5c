import { parseToolId } from './parse-tool-id.js';
import type { PreparedSnapshot } from './prepare-snapshot.js';
import { querySuggestions } from './query-suggestions.js';

/** did_you_mean for a raw ID (malformed IDs get none), from the servers in `visible` only. */
export function suggest(prepared: PreparedSnapshot, id: string, visible: ReadonlySet<string>): string[] {
  const parsed = parseToolId(id);
  if (!parsed.ok) return [];
  return querySuggestions(prepared.suggestions, `${parsed.server}:${parsed.tool}`, visible);
}
