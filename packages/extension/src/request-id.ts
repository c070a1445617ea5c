import { randomUUID } from 'node:crypto';

/** What a caller may choose as its correlation id (X-Request-Id); anything else is replaced. */
export const REQUEST_ID_PATTERN = /^[a-zA-Z0-9_-]{1,256}$/;

/** The caller's id when it is acceptable, else a fresh one (which matches the pattern). */
export function acceptRequestId(candidate: string | undefined): string {
  return candidate !== undefined && REQUEST_ID_PATTERN.test(candidate) ? candidate : freshRequestId();
}

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit sequence within the millisecond,
 * then 62 random bits. Fresh ids sort by time, so the activity log's request-id index grows at its
 * end instead of taking a random page per record (a several-fold cheaper insert).
 */
export function freshRequestId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (sequence < 0xfff) {
    sequence += 1;
  } else {
    // 4,096 ids in one millisecond: borrow the next one (ids stay unique and ordered).
    lastMs += 1;
    sequence = 0;
  }
  const time = lastMs.toString(16).padStart(12, '0');
  // randomUUID's variant nibble and 62 random bits (it draws from a cached entropy pool: cheap).
  return `${time.slice(0, 8)}-${time.slice(8)}-${(0x7000 | sequence).toString(16)}-${randomUUID().slice(19)}`;
}
