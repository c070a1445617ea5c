import type { ActivityQuery, StoredActivity } from './store.js';

/**
 * The activity query's filters on a record's metadata (ActivityQuery.server and .verdict) as a
 * predicate over the parsed record, with the SQLite store's rules: a tool call matches a server when
 * its metadata names exactly that server; a preflight when one of its per-tool IDs starts with the
 * server and a ':'; a verdict matches preflights whose set verdict is exactly it. Undefined when the
 * query has neither filter.
 *
 * The PostgreSQL store applies it after reading, not in SQL: PostgreSQL's JSON operators refuse a
 * whole document that holds a \u0000 escape or a lone surrogate escape, and a caller's tool ID may
 * hold either, which would make one such record break every search.
 */
export function activityMetadataFilter(query: Pick<ActivityQuery, 'server' | 'verdict'>): ((record: StoredActivity) => boolean) | undefined {
  const { server, verdict } = query;
  if (server === undefined && verdict === undefined) return undefined;
  return (record) => (server === undefined || ofServer(record, server)) && (verdict === undefined || (record.type === 'preflight' && record.metadata['verdict'] === verdict));
}

/**
 * Texts the stored metadata JSON (written by JSON.stringify) contains whenever the record can match:
 * a cheap first pass over the stored text that lets through every match and few others.
 */
export function activityMetadataNeedles(query: Pick<ActivityQuery, 'server' | 'verdict'>): { readonly toolCallServer?: string; readonly preflightServer?: string; readonly verdict?: string } {
  return {
    ...(query.server === undefined
      ? {}
      : {
          toolCallServer: `"server":${JSON.stringify(query.server)}`,
          // The ID's JSON string up to the colon: JSON.stringify escapes one character at a time.
          preflightServer: JSON.stringify(`${query.server}:`).slice(0, -1),
        }),
    ...(query.verdict === undefined ? {} : { verdict: `"verdict":${JSON.stringify(query.verdict)}` }),
  };
}

function ofServer(record: StoredActivity, server: string): boolean {
  if (record.type === 'tool_call') return record.metadata['server'] === server;
  if (record.type !== 'preflight') return false;
  const perTool = record.metadata['per_tool'];
  if (!Array.isArray(perTool)) return false;
  const prefix = `${server}:`;
  return perTool.some((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null || !Object.hasOwn(entry, 'id')) return false;
    const id = (entry as { readonly id: unknown }).id;
    return typeof id === 'string' && id.startsWith(prefix);
  });
}
