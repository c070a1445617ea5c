import { ProtocolError, ProtocolErrorCode, type ListToolsResult } from '@modelcontextprotocol/server';
import { withPreparedJson } from './prepared-json.js';
import { seekServed, type ServedListing } from './served-listing.js';

/**
 * One page of the served listing. The opaque cursor names the last entry of the previous page (by
 * server and tool), not an offset, so a listing that changes between pages neither repeats nor skips
 * the tools that stayed. A cursor that does not decode is -32602.
 *
 * The page carries its JSON text (serialized once per listing and page, on first demand), so a
 * transport that knows prepared JSON sends the same bytes again instead of serializing per request.
 * The page object itself is made once per listing and page too: every request for it gets the same
 * frozen object, not a new copy of its tools.
 */
export function toolListPage(listing: ServedListing, cursor: string | undefined, pageSize: number): ListToolsResult {
  const start = cursor === undefined ? 0 : seekServed(listing, decodeCursor(cursor), true);
  const end = Math.min(start + pageSize, listing.entries.length);
  // Only the pages a client reaches by following cursors from the first page are kept: a cursor a
  // caller made up can start anywhere, and keeping every start would hold N x pageSize definitions.
  if (start % pageSize !== 0) return pageOf(listing, start, end);
  let kept = keptPages.get(listing);
  if (kept === undefined) {
    kept = new Map();
    keptPages.set(listing, kept);
  }
  const key = `${start}:${end}`;
  let page = kept.get(key);
  if (page === undefined) {
    const fresh = pageOf(listing, start, end);
    let text: Buffer | undefined;
    // Any page of this listing with these bounds has the same tools and cursor, hence the same text.
    page = withPreparedJson(fresh, () => (text ??= Buffer.from(JSON.stringify(fresh), 'utf8')));
    kept.set(key, page);
  }
  return page;
}

// Per listing (itself cached per published state and scope), so the pages go when the state does.
const keptPages = new WeakMap<ServedListing, Map<string, ListToolsResult>>();

function pageOf(listing: ServedListing, start: number, end: number): ListToolsResult {
  const tools = Object.freeze(listing.entries.slice(start, end).map((entry) => entry.definition)) as ListToolsResult['tools'];
  return end >= listing.entries.length ? { tools } : { tools, nextCursor: encodeCursor(listing.entries[end - 1]!) };
}

const CURSOR_VERSION = 1;

export function encodeCursor(after: { server: string; tool: string }): string {
  return Buffer.from(JSON.stringify([CURSOR_VERSION, after.server, after.tool]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { server: string; tool: string } {
  let decoded: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(decoded) || decoded.length !== 3 || decoded[0] !== CURSOR_VERSION) throw invalidCursor();
  const [, server, tool] = decoded as unknown[];
  if (typeof server !== 'string' || typeof tool !== 'string') throw invalidCursor();
  return { server, tool };
}

function invalidCursor(): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid cursor');
}
