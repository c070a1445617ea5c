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
 */
export function toolListPage(listing: ServedListing, cursor: string | undefined, pageSize: number): ListToolsResult {
  const start = cursor === undefined ? 0 : seekServed(listing, decodeCursor(cursor), true);
  const end = Math.min(start + pageSize, listing.entries.length);
  const tools = Object.freeze(listing.entries.slice(start, end).map((entry) => entry.definition)) as ListToolsResult['tools'];
  const page: ListToolsResult = end >= listing.entries.length ? { tools } : { tools, nextCursor: encodeCursor(listing.entries[end - 1]!) };
  // Only the pages a client reaches by following cursors from the first page are kept: a cursor a
  // caller made up can start anywhere, and caching every start would hold N x pageSize definitions.
  if (start % pageSize !== 0) return page;
  return withPreparedJson(page, () => pageJson(listing, start, end, page));
}

// Per listing (itself cached per published state and scope), so the text goes when the state does.
const pageTexts = new WeakMap<ServedListing, Map<string, Buffer>>();

function pageJson(listing: ServedListing, start: number, end: number, page: ListToolsResult): Buffer {
  let texts = pageTexts.get(listing);
  if (texts === undefined) {
    texts = new Map();
    pageTexts.set(listing, texts);
  }
  const key = `${start}:${end}`;
  let text = texts.get(key);
  if (text === undefined) {
    // Any page of this listing with these bounds has the same tools and cursor, hence the same text.
    text = Buffer.from(JSON.stringify(page), 'utf8');
    texts.set(key, text);
  }
  return text;
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
