import { createHash, timingSafeEqual } from 'node:crypto';

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
  return createHash('sha256').update(value, 'utf8').digest();
}
