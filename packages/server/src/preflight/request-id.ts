import { randomUUID } from 'node:crypto';

/** What a caller may choose as its correlation id (X-Request-Id); anything else is replaced. */
export const REQUEST_ID_PATTERN = /^[a-zA-Z0-9_-]{1,256}$/;

/** The caller's id when it is acceptable, else a fresh one (a UUID, which matches the pattern). */
export function acceptRequestId(candidate: string | undefined): string {
  return candidate !== undefined && REQUEST_ID_PATTERN.test(candidate) ? candidate : randomUUID();
}
