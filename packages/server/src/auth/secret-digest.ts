import { hash, timingSafeEqual } from 'node:crypto';

/**
 * A secret kept only as its SHA-256. Comparing fixed-length digests with timingSafeEqual takes the
 * same time whatever the presented value, its length included.
 */
export interface SecretDigest {
  matches(presented: string): boolean;
}

export function secretDigest(secret: string): SecretDigest {
  const expected = sha256(secret);
  return { matches: (presented) => timingSafeEqual(expected, sha256(presented)) };
}

function sha256(value: string): Buffer {
  // The one-shot hash: no Hash object per request (the admin key is checked on every REST call).
  return hash('sha256', value, 'buffer') as unknown as Buffer;
}
