import { toolIdKey } from './parse-tool-id.js';

/** Keeps the first occurrence of each ID by its trimmed form, in order of first occurrence. */
export function dedupeToolIds<T extends { id: string }>(entries: readonly T[]): T[] {
  const seen = new Set<string>();
  const kept: T[] = [];
  for (const entry of entries) {
    const key = toolIdKey(entry.id);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(entry);
  }
  return kept;
}
