import { existsSync, readFileSync } from 'node:fs';

/** How the fixture answers tools/call while overloaded; `none` answers normally. */
export type FixtureOverload =
  | { readonly kind: 'none' }
  | { readonly kind: 'http'; readonly status: 429 | 503; readonly retryAfter?: string }
  | { readonly kind: 'json_rpc'; readonly code: number; readonly message: string };

export const NO_OVERLOAD: FixtureOverload = { kind: 'none' };

/**
 * The overload file: `{}` (or no file) answers normally; `{"status": 429|503, "retry_after"?: "2"}`
 * answers every tools/call POST with that HTTP status (and Retry-After, seconds or an HTTP-date),
 * HTTP mode only; `{"error_code": -32042, "message"?: "..."}` answers every tools/call with that
 * JSON-RPC error, on either transport.
 */
export function parseFixtureOverload(value: unknown, source: string): FixtureOverload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${source}: expected an object`);
  const entry = value as Record<string, unknown>;
  const status = Object.hasOwn(entry, 'status') ? entry['status'] : undefined;
  const code = Object.hasOwn(entry, 'error_code') ? entry['error_code'] : undefined;
  if (status !== undefined && code !== undefined) throw new Error(`${source}: give status or error_code, not both`);
  if (status !== undefined) {
    if (status !== 429 && status !== 503) throw new Error(`${source}: status must be 429 or 503, got ${JSON.stringify(status)}`);
    const retryAfter = Object.hasOwn(entry, 'retry_after') ? entry['retry_after'] : undefined;
    if (retryAfter !== undefined && typeof retryAfter !== 'string') throw new Error(`${source}: retry_after must be a string (the header's value)`);
    return retryAfter === undefined ? { kind: 'http', status } : { kind: 'http', status, retryAfter };
  }
  if (code !== undefined) {
    if (typeof code !== 'number' || !Number.isInteger(code)) throw new Error(`${source}: error_code must be an integer, got ${JSON.stringify(code)}`);
    const message = Object.hasOwn(entry, 'message') ? entry['message'] : undefined;
    return { kind: 'json_rpc', code, message: typeof message === 'string' ? message : 'overloaded' };
  }
  return NO_OVERLOAD;
}

/** A missing file means no overload, so a test can start the fixture before it writes one. */
export function readFixtureOverloadFile(path: string): FixtureOverload {
  if (!existsSync(path)) return NO_OVERLOAD;
  return parseFixtureOverload(JSON.parse(readFileSync(path, 'utf8')) as unknown, path);
}
