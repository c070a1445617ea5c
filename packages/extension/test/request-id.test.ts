// Request ids: a caller's X-Request-Id is kept when it matches the pattern; a fresh id is a UUIDv7
// that sorts by time (and by order of issue within a millisecond), so the activity log's request-id
// index grows at its end.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptRequestId, freshRequestId, REQUEST_ID_PATTERN } from '../src/index.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('keeps exactly the candidates that match ^[a-zA-Z0-9_-]{1,256}$', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (candidate) => {
        const accepted = acceptRequestId(candidate);
        expect(accepted === candidate).toBe(/^[a-zA-Z0-9_-]{1,256}$/.test(candidate));
        expect(REQUEST_ID_PATTERN.test(accepted)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    expect(acceptRequestId('x'.repeat(256))).toBe('x'.repeat(256));
    expect(acceptRequestId(undefined)).toMatch(UUID_V7);
  });

  it('issues UUIDv7 ids, unique and strictly increasing, even past 4,096 in one millisecond', () => {
    const now = Date.now() + 60_000;
    const ids = Array.from({ length: 10_000 }, () => freshRequestId(now));
    for (const id of ids) expect(id).toMatch(UUID_V7);
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
    expect(ids[0]!.replace(/-/g, '').slice(0, 12)).toBe(now.toString(16).padStart(12, '0'));
    // 62 random bits each: no two of 10,000 ids share them (a stuck or reused draw would).
    expect(new Set(ids.map((id) => id.slice(19))).size).toBe(ids.length);
    // A clock that goes backwards never reorders ids.
    const later = freshRequestId(now - 5_000);
    expect(later > ids.at(-1)!).toBe(true);
  });

  it('writes the time of each new millisecond and draws fresh random bits past every refill', () => {
    // Ids are issued from one clock for the whole process: each run starts past the last one's time.
    let horizon = Date.now() + 120_000;
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 2 ** 47 }), { minLength: 1, maxLength: 50 }), (offsets) => {
        const base = horizon;
        let previous = freshRequestId(base);
        let now = base;
        for (const offset of offsets) {
          now += offset % 10_000_000;
          const id = freshRequestId(now);
          expect(id).toMatch(UUID_V7);
          expect(id.replace(/-/g, '').slice(0, 12)).toBe(now.toString(16).padStart(12, '0'));
          expect(id > previous).toBe(true);
          previous = id;
        }
        horizon = now + 1;
      }),
    );
    // More ids than one draw of random bytes covers (512), within one millisecond and across them.
    const tails = new Set(Array.from({ length: 3_000 }, (_, i) => freshRequestId(horizon + (i >> 4)).slice(19)));
    expect(tails.size).toBe(3_000);
  });
});
