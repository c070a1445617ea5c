import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** One upstream's page: its items (already named for the gateway) and its own next cursor. */
export interface UpstreamPage<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

/** Where an aggregated listing goes on: each server that has more, with its own cursor. */
type Pending = readonly (readonly [server: string, cursor: string | undefined])[];

/**
 * One page of a listing aggregated over several upstreams (resources, templates, prompts): the next
 * page of every server that still has one, asked in parallel and given in server order. The gateway's
 * cursor carries each unfinished server's own cursor, so paging needs no state in the gateway and
 * survives its restart. A server that no longer contributes is skipped; one that fails to answer
 * is left out of this page and of the cursor (a listing is a view of what answers).
 */
export async function catalogPage<T>(
  servers: readonly string[],
  cursor: string | undefined,
  fetchPage: (server: string, cursor: string | undefined) => Promise<UpstreamPage<T>>,
): Promise<{ items: T[]; nextCursor?: string }> {
  const contributing = new Set(servers);
  const pending: Pending = cursor === undefined ? servers.map((server) => [server, undefined] as const) : decodeCursor(cursor).filter(([server]) => contributing.has(server));
  const pages = await Promise.all(
    pending.map(async ([server, upstreamCursor]) => {
      try {
        return { server, page: await fetchPage(server, upstreamCursor) };
      } catch {
        return { server, page: undefined };
      }
    }),
  );
  const items: T[] = [];
  const next: [string, string][] = [];
  for (const { server, page } of pages) {
    if (page === undefined) continue;
    items.push(...page.items);
    if (page.nextCursor !== undefined) next.push([server, page.nextCursor]);
  }
  return next.length === 0 ? { items } : { items, nextCursor: encodeCursor(next) };
}

function encodeCursor(pending: Pending): string {
  return Buffer.from(JSON.stringify(pending), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): Pending {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(value) || !value.every((entry) => Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' && typeof entry[1] === 'string')) {
    throw invalidCursor();
  }
  return value as [string, string][];
}

function invalidCursor(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid params: cursor is not one this gateway gave out');
}
