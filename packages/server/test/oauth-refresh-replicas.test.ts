// Two gateways on one PostgreSQL store with the same OAuth upstream (the world's real authorization
// server). A login through one brings the other up. Their refresh timers fire at the same moment: the refresh token rotates, so
// only one of them may spend it. The other waits for the server's exclusive section (a PostgreSQL
// advisory lock), then finds the tokens its peer stored and uses them without asking the
// authorization server. The token endpoint is held while both are under way, so the test sees
// which requests reached it and that the second gateway waits on the lock meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_SPACE } from '../src/store/postgres-advisory-lock.js';
import { TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { OAuthWorld } from './oauth-world/oauth-world.js';
import { queryRows, startTestPostgres, type TestPostgres } from './test-postgres.js';

const TTL_S = 60;
/** Generous: CI runs on a loaded 2-core machine. */
const BOUND_MS = 30_000;

let postgres: TestPostgres;
let databaseUrl: string;
let world: OAuthWorld;
let secondDir: TempDir;
let second: TestGateway;

beforeAll(async () => {
  postgres = await startTestPostgres();
  databaseUrl = await postgres.createDatabase();
  const shared = { store: { kind: 'postgres', url: databaseUrl } };
  world = await OAuthWorld.start({ accessTokenTtl: TTL_S });
  await world.startGateway({}, {}, shared);
  secondDir = new TempDir();
  second = await world.startReplica(secondDir, {}, {}, shared);
});
afterAll(async () => {
  await second?.close();
  secondDir?.remove();
  await world?.close();
  await postgres?.close();
});

/** The stored tokens of `web`, as the database holds them. */
async function storedTokens(): Promise<{ access_token?: string; refresh_token?: string; expires_at: number | null }> {
  const [row] = await queryRows<{ tokens: string; tokens_expire_at: number | null }>(databaseUrl, "SELECT tokens, tokens_expire_at FROM upstream_oauth WHERE server = 'web'");
  return { ...(JSON.parse(row!.tokens) as { access_token?: string; refresh_token?: string }), expires_at: row!.tokens_expire_at };
}

/** Sessions of this database waiting for (false) or holding (true) a gateway exclusive section's lock. */
async function sectionLocks(granted: boolean): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    databaseUrl,
    `SELECT count(*)::int AS n FROM pg_locks
      WHERE locktype = 'advisory' AND classid = $1::oid AND granted = $2
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [LOCK_SPACE.exclusive, granted],
  );
  return row!.n;
}

async function authExpiry(gateway: TestGateway): Promise<unknown> {
  const response = await fetch(`${gateway.gateway.origin!}/api/v1/auth`, { headers: { 'x-api-key': 'test-admin-key-0123456789' } });
  const body = (await response.json()) as { servers: { expires_at?: unknown }[] };
  return body.servers[0]?.expires_at;
}

function webState(gateway: TestGateway, state: string): Promise<unknown> {
  return waitForState(gateway.gateway, (published) => published.snapshot.servers.get('web')?.connection.state === state, BOUND_MS);
}

describe('a login finished on one replica', () => {
  it('brings the other up with the stored tokens, without spending the refresh token', async () => {
    await world.waitForWeb('pending_auth');
    await webState(second, 'pending_auth');
    await world.login();
    await webState(second, 'ready');
    // It took the stored tokens as they are: a fresh login is not refreshed (spent) on its arrival.
    expect(world.as.grants.refresh_token).toBe(0);
    expect(await world.callEcho('logged in elsewhere', second.url)).toContain('logged in elsewhere');
  });
});

describe('two replicas refreshing the same login at once', () => {
  it('one refresh reaches the authorization server; the other replica waits its turn and uses the result', async () => {
    const before = await storedTokens();
    expect(before.expires_at).toBe(TTL_S * 1000);
    expect(world.as.grants.refresh_token).toBe(0);
    const held = world.as.holdTokenRequests();

    // A fifth of the lifetime ahead of the expiry, both replicas' timers fire in the same moment.
    await world.advance(48_000);
    // Until one replica's refresh is at the authorization server and the other waits for the section
    // (or, without the section, both refreshes are there).
    await world.until(async () => held.arrived() >= 2 || (held.arrived() === 1 && (await sectionLocks(false)) === 1), BOUND_MS);
    expect(held.arrived()).toBe(1);

    held.release();
    await world.until(async () => (await sectionLocks(false)) + (await sectionLocks(true)) === 0, BOUND_MS);
    expect(world.as.grants.refresh_token).toBe(1);
    const after = await storedTokens();
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.expires_at).toBe(48_000 + TTL_S * 1000);
    expect(world.logs.filter((line) => line.startsWith('oauth:'))).toEqual([]);
    // Both replicas hold the new login (the waiting one read it from the store, it did not refresh).
    const expiry = new Date(after.expires_at!).toISOString();
    expect(await authExpiry(world.gateway)).toBe(expiry);
    expect(await authExpiry(second)).toBe(expiry);

    // Past the first token's expiry the upstream refuses it; both replicas send the new one.
    await world.advance(20_000);
    const refused = world.upstream.unauthorized;
    expect(await world.callEcho('first replica')).toContain('first replica');
    expect(await world.callEcho('second replica', second.url)).toContain('second replica');
    expect(world.upstream.unauthorized).toBe(refused);
    expect(world.as.grants.refresh_token).toBe(1);
  });
});
