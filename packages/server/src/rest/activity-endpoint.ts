import type { ActivityQuery, Store } from '../store/store.js';
import { REQUEST_ID_PATTERN } from '@mcpproxy/extension';
import { decodeActivityCursor, encodeActivityCursor } from './activity-cursor.js';
import { apiError } from './api-error.js';
import type { RestEndpoint, RestReply } from './rest-endpoint.js';

export const DEFAULT_ACTIVITY_PAGE = 100;
export const MAX_ACTIVITY_PAGE = 1000;
const TYPES = new Set(['preflight', 'tool_call']);
const VERDICTS = new Set(['ready', 'degraded_retryable', 'blocked', 'unknown_ids']);

/**
 * GET /api/v1/activity (operator): filter by type, request id, server, verdict and time (since/until,
 * inclusive, ISO 8601), newest first, `limit` per page; page on with `cursor` (next_cursor of the previous
 * page, filters repeated) or a plain `offset`.
 */
export function activityEndpoint(store: Pick<Store, 'queryActivity'>): RestEndpoint {
  return {
    method: 'GET',
    path: '/activity',
    operatorOnly: true,
    query: ['type', 'request_id', 'server', 'verdict', 'since', 'until', 'limit', 'cursor', 'offset'],
    async handle(request) {
      const parsed = parseQuery(request.query);
      if (!parsed.ok) return parsed.reply;
      const { query, limit, offset, pinnedUntil } = parsed;
      let records;
      try {
        records = await store.queryActivity({ ...query, ...(pinnedUntil === undefined ? {} : { until: pinnedUntil }), limit: limit + 1, offset });
      } catch {
        return apiError(503, 'state_unavailable', 'The activity log could not be read');
      }
      const page = records.slice(0, limit);
      const until = pinnedUntil ?? page[0]?.timestamp;
      const more = records.length > limit && until !== undefined;
      return { status: 200, body: { records: page, ...(more ? { next_cursor: encodeActivityCursor({ offset: offset + limit, until }) } : {}) } };
    },
  };
}

type ParsedQuery =
  | { ok: true; query: ActivityQuery; limit: number; offset: number; pinnedUntil: string | undefined }
  | { ok: false; reply: RestReply };

function parseQuery(params: URLSearchParams): ParsedQuery {
  const bad = (name: string, message: string): ParsedQuery => ({ ok: false, reply: apiError(400, 'invalid_body', `Query parameter ${name}: ${message}`, name) });
  const type = params.get('type') ?? undefined;
  if (type !== undefined && !TYPES.has(type)) return bad('type', 'expected preflight or tool_call');
  const requestId = params.get('request_id') ?? undefined;
  if (requestId !== undefined && !REQUEST_ID_PATTERN.test(requestId)) return bad('request_id', 'expected 1-256 of a-z A-Z 0-9 _ -');
  const server = params.get('server') ?? undefined;
  if (server !== undefined && (server.length < 1 || server.length > 128)) return bad('server', 'expected a server name of 1-128 characters');
  const verdict = params.get('verdict') ?? undefined;
  if (verdict !== undefined && !VERDICTS.has(verdict)) return bad('verdict', 'expected ready, degraded_retryable, blocked or unknown_ids');
  const since = params.get('since') ?? undefined;
  const until = params.get('until') ?? undefined;
  for (const [name, value] of [['since', since], ['until', until]] as const) {
    if (value !== undefined && !isDateTime(value)) return bad(name, 'expected an ISO 8601 date-time, e.g. 2026-01-31T12:00:00Z');
  }
  const limit = integer(params.get('limit'), DEFAULT_ACTIVITY_PAGE);
  if (limit === undefined || limit < 1 || limit > MAX_ACTIVITY_PAGE) return bad('limit', `expected an integer from 1 to ${MAX_ACTIVITY_PAGE}`);
  const cursorText = params.get('cursor');
  if (cursorText !== null && params.has('offset')) return bad('cursor', 'give cursor or offset, not both');
  let offset = integer(params.get('offset'), 0);
  if (offset === undefined || offset < 0) return bad('offset', 'expected a non-negative integer');
  let pinnedUntil: string | undefined;
  if (cursorText !== null) {
    const cursor = decodeActivityCursor(cursorText);
    if (cursor === undefined) return bad('cursor', 'not a cursor this gateway issued');
    offset = cursor.offset;
    pinnedUntil = until !== undefined && Date.parse(until) < Date.parse(cursor.until) ? until : cursor.until;
  }
  const query: ActivityQuery = {
    ...(type === undefined ? {} : { type }),
    ...(requestId === undefined ? {} : { request_id: requestId }),
    ...(server === undefined ? {} : { server }),
    ...(verdict === undefined ? {} : { verdict }),
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
  };
  return { ok: true, query, limit, offset, pinnedUntil };
}

function integer(text: string | null, fallback: number): number | undefined {
  if (text === null) return fallback;
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

function isDateTime(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) && !Number.isNaN(Date.parse(text));
}
