/**
 * The opaque next-page cursor of GET /api/v1/activity: the offset of the next page and the newest
 * timestamp of the first page, so records written while a client pages do not shift the pages.
 */
export interface ActivityCursor {
  readonly offset: number;
  /** ISO 8601; the first page's newest record. */
  readonly until: string;
}

export function encodeActivityCursor(cursor: ActivityCursor): string {
  return Buffer.from(JSON.stringify({ o: cursor.offset, u: cursor.until }), 'utf8').toString('base64url');
}

export function decodeActivityCursor(text: string): ActivityCursor | undefined {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (typeof value !== 'object' || value === null) return undefined;
    const { o, u } = value as { o?: unknown; u?: unknown };
    if (typeof o !== 'number' || !Number.isInteger(o) || o < 0 || typeof u !== 'string' || Number.isNaN(Date.parse(u))) return undefined;
    return { offset: o, until: u };
  } catch {
    return undefined;
  }
}
