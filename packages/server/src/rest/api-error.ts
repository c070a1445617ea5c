import type { ApiError, ApiErrorCode } from '@mcpproxy/schema';
import type { RestReply } from './rest-endpoint.js';

/** An ApiError reply: a stable code, one human sentence, and what is at fault (never a stack trace). */
export function apiError(status: number, code: ApiErrorCode, message: string, path?: string, headers?: Readonly<Record<string, string>>): RestReply {
  const body: ApiError = { code, message, ...(path === undefined ? {} : { path }) };
  return { status, body, ...(headers === undefined ? {} : { headers }) };
}
