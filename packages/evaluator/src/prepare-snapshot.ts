import type { GatewaySnapshot } from './snapshot.js';
import { buildSuggestionIndex, type SuggestionIndex } from './suggestion-index.js';

/** A snapshot with what evaluations of it share, built once per snapshot version. */
export interface PreparedSnapshot {
  readonly snapshot: GatewaySnapshot;
  readonly suggestions: SuggestionIndex;
}

export function prepareSnapshot(snapshot: GatewaySnapshot): PreparedSnapshot {
  return { snapshot, suggestions: buildSuggestionIndex(snapshot) };
}
