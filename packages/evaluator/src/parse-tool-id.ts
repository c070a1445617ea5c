// IDs are `server:tool`, split on the first ':' with both halves trimmed; an empty half
// makes the ID malformed (a not_found verdict, never a request error).

export type ParsedToolId = { ok: true; server: string; tool: string } | { ok: false };

export function parseToolId(raw: string): ParsedToolId {
  const colon = raw.indexOf(':');
  if (colon < 0) return { ok: false };
  const server = raw.slice(0, colon).trim();
  const tool = raw.slice(colon + 1).trim();
  if (server === '' || tool === '') return { ok: false };
  return { ok: true, server, tool };
}

/**
 * The trimmed form two IDs are compared by: halves trimmed around the first ':' (the
 * canonical `server:tool` for a well-formed ID), or the whole string trimmed when there is no ':'.
 */
export function toolIdKey(raw: string): string {
  const colon = raw.indexOf(':');
  if (colon < 0) return raw.trim();
  return `${raw.slice(0, colon).trim()}:${raw.slice(colon + 1).trim()}`;
}
