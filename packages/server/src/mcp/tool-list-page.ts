import { ProtocolError, ProtocolErrorCode, type ListToolsResult } from '@modelcontextprotocol/server';
import { seekServed, type ServedListing } from './served-listing.js';

/**
 * One page of the served listing. The opaque cursor names the last entry of the previous page (by
 * server and tool), not an offset, so a listing that changes between pages neither repeats nor skips
 * the tools that stayed. A cursor that does not decode is -32602.
 */
export function toolListPage(listing: ServedListing, cursor: string | undefined, pageSize: number): ListToolsResult {
  const start = cursor === undefined ? 0 : seekServed(listing, decodeCursor(cursor), true);
  const end = Math.min(start + pageSize, listing.entries.length);
  const tools = listing.entries.slice(start, end).map((entry) => entry.definition);
  if (end >= listing.entries.length) return { tools };
  const last = listing.entries[end - 1]!;
  return { tools, nextCursor: encodeCursor(last) };
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
