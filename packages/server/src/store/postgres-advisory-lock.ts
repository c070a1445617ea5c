import type { ClientBase } from 'pg';

/**
 * PostgreSQL advisory locks of the gateway, in their own two-key space so that other applications
 * on the same database cannot collide with them: the first key says what kind of lock (schema
 * migrations, or an exclusive section), the second is the section's name hashed by the server. Two
 * names hashing alike only serialise more; they never let two holders in at once.
 */
export const LOCK_SPACE = {
  /** 'mcpm' */
  migrations: 0x6d63706d,
  /** 'mcpx' */
  exclusive: 0x6d637078,
} as const;

/** Blocks until this session holds the lock (held until unlocked or the session ends). */
export async function lockSession(client: ClientBase, space: number, name: string): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1::int4, hashtext($2::text))', [space, name]);
}

/** Releases a lock this session holds; false when it did not hold it. */
export async function unlockSession(client: ClientBase, space: number, name: string): Promise<boolean> {
  const result = await client.query<{ released: boolean }>('SELECT pg_advisory_unlock($1::int4, hashtext($2::text)) AS released', [space, name]);
  return result.rows[0]?.released === true;
}
