// Two gateway processes (dist/bin/serve.js) on one PostgreSQL database, behind no load balancer but
// the test itself, with one real HTTP fixture upstream they both connect to (each replica holds its
// own connection). What an operator does on one replica holds on the other at once; tokens live in
// the database; a replica killed under load loses no acknowledged record; losing the database is a
// 503 and refused calls, reads and prompt gets until it returns, and a replica that missed a
// notification re-reads.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS } from '../src/store/postgres-migrations.js';
import { namespacedUri } from '../src/mcp/namespaced-uri.js';
import { STORE_UNREACHABLE_REFUSAL } from '../src/mcp/store-unreachable-refusal.js';
import type { PublishedState } from '../src/state/gateway-runtime.js';
import type { Store } from '../src/store/store.js';
import type { EventStreamReader } from './event-stream-reader.js';
import { eventually, startHttpFixture, type HttpFixture } from './fixture-process.js';
import { serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { isListChanged, openListenStream } from './listen-request.js';
import { openRawSession, type RawError } from './raw-mcp-session.js';
import { startReplica, type Replica } from './replica-process.js';
import { restClient, withoutVolatile } from './rest-client.js';
import { queryRows as rows, startTestPostgres, type TestPostgres } from './test-postgres.js';

/**
 * The most an operator action on one replica may take to show on the other in these tests. The
 * design target is one second (a NOTIFY is delivered in milliseconds, then one re-read); the bound is
 * generous because CI runs on a loaded 2-core machine. Each measurement is printed.
 */
const AGREEMENT_BOUND_MS = 5000;

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(async () => {
  await server?.close();
});

const undo: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of undo.splice(0).reverse()) await step();
});

function tempDir(): TempDir {
  const dir = new TempDir();
  undo.push(() => dir.remove());
  return dir;
}

async function fixture(dir: TempDir, tools: readonly string[]): Promise<HttpFixture & { list(tools: readonly string[]): void }> {
  const file = dir.file('fixture.tools.json', toolsJson(tools));
  const started = await startHttpFixture(['--tools', file]);
  undo.push(() => started.stop());
  return {
    ...started,
    // The fixture re-reads its tools on SIGHUP and sends tools/list_changed to each replica's session.
    list(next) {
      dir.file('fixture.tools.json', toolsJson(next));
      started.process.kill('SIGHUP');
    },
  };
}

/** The fixture's tools, and one resource and one prompt, which are gated like its tools. */
function toolsJson(tools: readonly string[]): string {
  return JSON.stringify({
    tools: tools.map((name) => ({ name, description: `the ${name} tool`, echo: true })),
    resources: [{ uri: NOTE_URI, name: 'note', text: 'the note' }],
    prompts: [{ name: 'greet', text: 'hello from the fixture' }],
  });
}

const NOTE_URI = 'fixture://note';

async function replica(dir: TempDir, name: string, databaseUrl: string, upstream: HttpFixture, extra: Record<string, unknown> = {}): Promise<Replica> {
  const started = await startReplica(dir, name, databaseUrl, { servers: [{ name: 'fixture', url: upstream.url, quarantined: false }], ...extra });
  undo.push(() => started.stop());
  return started;
}

/** The replica's REST verdict for these ids (waiting while they are still connecting). */
async function verdict(at: Replica, ids: readonly string[], wait = true): Promise<{ status: number; body: any; text: string }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return at.api.preflight({ tools: ids.map((id) => ({ id })), ...(wait ? { wait_ms: 10_000 } : {}) });
}

/** Status and reason of each tool in the replica's verdict. */
async function reasons(at: Replica, ids: readonly string[]): Promise<string[]> {
  const answer = await verdict(at, ids);
  expect(answer.status).toBe(200);
  return (answer.body.tools as { status: string; reason?: string }[]).map((tool) => tool.reason ?? tool.status);
}

/** Resolves at the stream's next tools/list_changed after now. */
function nextListChanged(stream: EventStreamReader): Promise<unknown> {
  const count = () => stream.messages.filter(isListChanged).length;
  const seen = count();
  return stream.waitFor((message) => isListChanged(message) && count() > seen);
}

/** Runs the action on one replica and returns how long until the other replica's listen stream heard of it. */
async function agreement(action: () => Promise<{ status: number }>, heardOn: EventStreamReader, what: string): Promise<number> {
  const heard = nextListChanged(heardOn);
  const started = performance.now();
  const answer = await action();
  expect(answer.status, what).toBe(200);
  await heard;
  const took = performance.now() - started;
  console.info(`replica agreement: ${what} took ${took.toFixed(1)} ms to reach the other replica`);
  expect(took, what).toBeLessThan(AGREEMENT_BOUND_MS);
  return took;
}

async function callTool(at: Replica, name: string, token?: string): Promise<{ isError: boolean; text: string }> {
  const session = await openRawSession(at.url, 'modern', token === undefined ? {} : { token });
  const answer = await session.request('tools/call', { name, arguments: { said: 'hello' } });
  if (answer.error !== undefined) throw new Error(`tools/call ${name}: ${JSON.stringify(answer.error)}`);
  const result = answer.result as { isError?: boolean; content: { text: string }[] };
  return { isError: result.isError === true, text: result.content.map((c) => c.text).join('\n') };
}

/** A resources/read's or a prompts/get's answer: its text, or the JSON-RPC error. */
type ReadAnswer = { readonly text: string | undefined } | { readonly error: RawError };

/** What a resources/read and a prompts/get of the fixture's resource and prompt answer. */
async function readAndGet(at: Replica): Promise<{ read: ReadAnswer; get: ReadAnswer }> {
  const session = await openRawSession(at.url, 'modern');
  const read = await session.request('resources/read', { uri: namespacedUri('fixture', NOTE_URI) });
  const get = await session.request('prompts/get', { name: 'fixture:greet' });
  return {
    read: read.error === undefined ? { text: (read.result as { contents: { text: string }[] }).contents[0]?.text } : { error: read.error },
    get: get.error === undefined ? { text: (get.result as { messages: { content: { text: string } }[] }).messages[0]?.content.text } : { error: get.error },
  };
}

const IDS = ['fixture:a', 'fixture:b', 'fixture:nope', 'ghost:x'];

/** Two replicas on a fresh database and one fixture upstream listing `a`, both with `fixture:a` ready. */
async function readyPair(): Promise<{ url: string; a: Replica; b: Replica }> {
  const dir = tempDir();
  const url = await server.createDatabase();
  const upstream = await fixture(dir, ['a']);
  const [a, b] = await Promise.all([replica(dir, 'a', url, upstream), replica(dir, 'b', url, upstream)]);
  for (const at of [a, b]) expect(await reasons(at, ['fixture:a'])).toEqual(['ready']);
  return { url, a, b };
}

describe('two replicas on one PostgreSQL database', () => {
  // One pair of replicas for the cases that leave the state as they found it: starting two gateway
  // processes is most of a case's time on a loaded machine. B logs in as a role of its own, so that a
  // case can lock B alone out of the database while A goes on.
  let dir: TempDir;
  let url: string;
  let upstream: Awaited<ReturnType<typeof fixture>>;
  let a: Replica;
  let b: Replica;
  let role: string;
  const shared: (() => Promise<void> | void)[] = [];
  beforeAll(async () => {
    dir = new TempDir();
    shared.push(() => dir.remove());
    url = await server.createDatabase();
    role = `replica_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(9).toString('hex');
    await server.admin(`CREATE ROLE ${role} LOGIN SUPERUSER PASSWORD '${password}'`);
    const roleUrl = new URL(url);
    roleUrl.username = role;
    roleUrl.password = password;
    const file = dir.file('fixture.tools.json', toolsJson(['a']));
    const started = await startHttpFixture(['--tools', file]);
    shared.push(() => started.stop());
    upstream = {
      ...started,
      list(next) {
        dir.file('fixture.tools.json', toolsJson(next));
        started.process.kill('SIGHUP');
      },
    };
    // Two configured servers on the one upstream, so that a token's scope can leave one out.
    const servers = { servers: [{ name: 'fixture', url: started.url, quarantined: false }, { name: 'other', url: started.url, quarantined: false }] };
    // Both at once, against an empty database.
    const pair = await Promise.allSettled([startReplica(dir, 'a', url, servers), startReplica(dir, 'b', roleUrl.toString(), servers)]);
    for (const one of pair) if (one.status === 'fulfilled') shared.push(() => one.value.stop());
    for (const one of pair) if (one.status === 'rejected') throw one.reason;
    [a, b] = pair.map((one) => (one as PromiseFulfilledResult<Replica>).value) as [Replica, Replica];
  });
  afterAll(async () => {
    for (const step of shared.splice(0).reverse()) await step();
    await server.admin(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
  });

  it('start at once on an empty database, and an approve, a quarantine, a disabled tool and a disabled server on one hold on the other at once', async () => {
    expect((await rows<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version)).toEqual(
      POSTGRES_MIGRATIONS.map((m) => m.version),
    );
    for (const at of [a, b]) expect(await reasons(at, ['fixture:a'])).toEqual(['ready']);

    // A tool appears after the baseline: pending on both.
    upstream.list(['a', 'b']);
    for (const at of [a, b]) await eventually(async () => expect(await reasons(at, ['fixture:b'])).toEqual(['tool_pending_approval']));
    const atA = await openListenStream(a.url);
    const atB = await openListenStream(b.url);
    undo.push(() => atA.cancel());
    undo.push(() => atB.cancel());

    await agreement(() => a.api.call('POST', '/api/v1/tools/approve', { body: { ids: ['fixture:b'] } }), atB, 'approve on A');
    expect(await reasons(b, ['fixture:b'])).toEqual(['ready']);
    // Dispatch on B agrees with its verdict.
    expect(await callTool(b, 'fixture:b')).toMatchObject({ isError: false });

    await agreement(() => b.api.call('POST', '/api/v1/servers/fixture/quarantine'), atA, 'quarantine on B');
    expect(await reasons(a, ['fixture:a', 'fixture:b'])).toEqual(['server_quarantined', 'server_quarantined']);
    await agreement(() => a.api.call('POST', '/api/v1/servers/fixture/unquarantine'), atB, 'unquarantine on A');
    expect(await reasons(b, ['fixture:a', 'fixture:b'])).toEqual(['ready', 'ready']);

    await agreement(() => b.api.call('POST', '/api/v1/tools/fixture:a/disable'), atA, 'tool disabled on B');
    expect(await reasons(a, ['fixture:a'])).toEqual(['tool_blocked_by_user']);
    expect(await callTool(a, 'fixture:a')).toMatchObject({ isError: true, text: expect.stringContaining('tool_blocked_by_user') });

    // Every store-backed gate reads the same on both replicas, byte for byte but the request's own fields.
    const [onA, onB] = await Promise.all([verdict(a, IDS), verdict(b, IDS)]);
    expect(withoutVolatile(onB.text)).toBe(withoutVolatile(onA.text));

    await agreement(() => a.api.call('POST', '/api/v1/servers/fixture/disable'), atB, 'server disabled on A');
    expect(await reasons(b, ['fixture:a'])).toEqual(['server_disabled']);
    // Enabled on B: each replica connects its own upstream again.
    expect((await b.api.call('POST', '/api/v1/servers/fixture/enable')).status).toBe(200);
    for (const at of [a, b]) await eventually(async () => expect(await reasons(at, ['fixture:a', 'fixture:b'])).toEqual(['tool_blocked_by_user', 'ready']));
    await agreement(() => a.api.call('POST', '/api/v1/tools/fixture:a/enable'), atB, 'tool enabled on A');
    expect(await reasons(b, ['fixture:a'])).toEqual(['ready']);
  });

  it('share agent tokens: one created on a replica works on the other, with its scope, until it is revoked on either', async () => {
    for (const at of [a, b]) expect(await reasons(at, ['fixture:a', 'other:a'])).toEqual(['ready', 'ready']);
    const created = await a.api.call('POST', '/api/v1/tokens', { body: { name: 'ci', allowed_servers: ['fixture'] } });
    expect(created.status).toBe(201);
    const secret = created.body.token as string;
    const asAgent = { auth: { bearer: secret } };
    for (const at of [b, a]) {
      const answer = await at.api.preflight({ tools: [{ id: 'fixture:a' }, { id: 'other:a' }] }, asAgent);
      expect(answer.status, at.name).toBe(200);
      // The agent tier: out of scope reads not_found, and no hashes.
      expect(answer.body.tools.map((t: { reason?: string; status: string }) => t.reason ?? t.status)).toEqual(['ready', 'not_found']);
      expect(answer.text).not.toContain('"hash"');
    }
    expect(await callTool(b, 'fixture:a', secret)).toMatchObject({ isError: false });
    const listening = await openListenStream(b.url, secret);
    undo.push(() => listening.cancel());

    const revoked = await a.api.call('DELETE', '/api/v1/tokens/ci');
    expect([revoked.status, revoked.body.revoked]).toEqual([200, true]);
    // What it held open on the other replica ends too; its next request there is refused.
    await listening.ended;
    expect((await b.api.preflight({ tools: [{ id: 'fixture:a' }] }, asAgent)).status).toBe(401);
    expect((await b.api.call('GET', '/api/v1/tokens')).body.tokens.find((t: { name: string }) => t.name === 'ci')).toMatchObject({ revoked: true, source: 'store' });
  });

  it('serve 2026-07-28 requests on any replica, while a 2025-11-25 session lives on the replica that opened it', async () => {
    // Stateless: each request may land on either replica and reads the same.
    const listings: string[] = [];
    for (const at of [a, b, a, b]) {
      const session = await openRawSession(at.url, 'modern');
      const listed = await session.request('tools/list');
      expect(listed.status).toBe(200);
      listings.push(JSON.stringify(listed.result.tools));
      expect(await callTool(at, 'fixture:a')).toMatchObject({ isError: false });
    }
    expect(new Set(listings).size).toBe(1);

    // Sessionful: the session id A issued means nothing to B (404, "Session not found"), so the client
    // would have to start over there; a load balancer keeps a session on its replica (sticky routing).
    const init = await fetch(a.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'sticky-test', version: '1' } } }),
    });
    await init.text();
    const sessionId = init.headers.get('mcp-session-id');
    expect(sessionId).not.toBeNull();
    const inSession = (at: Replica) =>
      fetch(at.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId!, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    const onA = await inSession(a);
    expect(onA.status).toBe(200);
    expect(await onA.text()).toContain('fixture:a');
    const onB = await inSession(b);
    expect(onB.status).toBe(404);
    expect(await onB.text()).toContain('Session not found');
    // Starting over on B works.
    const again = await openRawSession(b.url, 'legacy');
    expect((await again.request('tools/list')).result.tools.map((t: { name: string }) => t.name)).toContain('fixture:a');
    await again.close();
  });

  it('re-read everything when their change feed comes back, so a notification one missed leaves it stale for no answer', async () => {
    upstream.list(['a', 'b', 'c']);
    for (const at of [a, b]) await eventually(async () => expect(await reasons(at, ['fixture:c'])).toEqual(['tool_pending_approval']));

    await server.admin(`ALTER ROLE ${role} NOLOGIN`);
    try {
      await server.admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
      // B knows it may be stale: no verdict from it.
      await eventually(async () => expect((await verdict(b, ['fixture:c'], false)).status).toBe(503));
      // Approved on A while B cannot hear it.
      expect((await a.api.call('POST', '/api/v1/tools/approve', { body: { ids: ['fixture:c'] } })).status).toBe(200);
      expect(await reasons(a, ['fixture:c'])).toEqual(['ready']);
    } finally {
      await server.admin(`ALTER ROLE ${role} LOGIN`);
    }
    // B's first verdict after the outage already has the approval it never was told of.
    const first = await eventually(async () => {
      const answer = await verdict(b, ['fixture:c'], false);
      expect(answer.status).toBe(200);
      return answer;
    });
    expect(first.body.tools[0]).toMatchObject({ id: 'fixture:c', status: 'ready' });
  });
});

describe('a replica killed, the database lost', () => {
  it('lose no acknowledged activity record when one is killed (SIGKILL) under preflight load, and the other keeps answering', async () => {
    const { url, a, b } = await readyPair();

    const acknowledged: { replica: string; id: string; afterKill: boolean }[] = [];
    const failures: { replica: string; afterKill: boolean; error: string }[] = [];
    let killed = false;
    const body = JSON.stringify({ tools: [{ id: 'fixture:a' }] });
    // Bounded: WORKERS loops of at most PER_WORKER requests each, alternating between the replicas,
    // which end once B has answered AFTER_KILL more after the kill.
    const WORKERS = 8;
    const PER_WORKER = 300;
    const KILL_AFTER = 100;
    const AFTER_KILL = 60;
    const count = (replica: string, afterKill?: boolean) => acknowledged.filter((r) => r.replica === replica && (afterKill === undefined || r.afterKill === afterKill)).length;
    let reachKillPoint!: () => void;
    const killPoint = new Promise<void>((resolve) => (reachKillPoint = resolve));
    const worker = async (w: number) => {
      for (let i = 0; i < PER_WORKER && count('b', true) < AFTER_KILL; i += 1) {
        const at = (w + i) % 2 === 0 ? a : b;
        if (at === a && killed) continue;
        const afterKill = killed;
        const requestId = `w${w}-r${i}-${randomBytes(3).toString('hex')}`;
        try {
          const response = await fetch(`${at.origin}/api/v1/preflight`, {
            method: 'POST',
            headers: { 'x-api-key': 'test-admin-key-0123456789', 'content-type': 'application/json', 'x-request-id': requestId },
            body,
          });
          const text = await response.text();
          const answered = response.status === 200 ? (JSON.parse(text) as { request_id: string }).request_id : undefined;
          if (answered === requestId) acknowledged.push({ replica: at.name, id: requestId, afterKill });
          else failures.push({ replica: at.name, afterKill, error: `${response.status} ${text}` });
        } catch (error) {
          failures.push({ replica: at.name, afterKill, error: String(error) });
        }
        if (count('a') >= KILL_AFTER) reachKillPoint();
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));

    await killPoint;
    // The database stalls right then (a lock, a slow disk): every activity commit waits behind a table
    // lock the test holds. A replica that answered before its record were committed would go on
    // answering now, and lose those records with its process.
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE activity_log IN SHARE ROW EXCLUSIVE MODE');
      await eventually(async () => {
        const waiting = await rows<{ n: number }>(url, "SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'activity_log'::regclass AND NOT granted");
        expect(waiting[0]!.n).toBeGreaterThanOrEqual(2);
      });
      const exited = new Promise<void>((resolve) => a.child.once('exit', () => resolve()));
      killed = true;
      a.child.kill('SIGKILL');
      await exited;
      await locker.query('COMMIT');
    } finally {
      await locker.end();
    }
    await load;
    expect(a.child.signalCode).toBe('SIGKILL');
    // B kept answering: every request it got after the kill was a 200.
    expect(count('b', true)).toBeGreaterThanOrEqual(AFTER_KILL);
    expect(failures.filter((f) => f.replica === 'b')).toEqual([]);
    // Every 200 either replica sent has its record in the database, the killed one's included.
    const ids = acknowledged.map((r) => r.id);
    const stored = new Set((await rows<{ request_id: string }>(url, 'SELECT request_id FROM activity_log WHERE request_id = ANY($1)', [ids])).map((r) => r.request_id));
    expect(ids.filter((id) => !stored.has(id))).toEqual([]);
    expect(count('a')).toBeGreaterThanOrEqual(KILL_AFTER);
  });

  it('answer 503 and refuse tool calls, resource reads and prompt gets while the database is stopped, and recover on their own when it starts again', async () => {
    const { url, a, b } = await readyPair();

    const outage = await server.outage(url);
    let ended = false;
    try {
      for (const at of [a, b]) {
        await eventually(async () => expect((await verdict(at, ['fixture:a'], false)).status).toBe(503));
        const refused = await verdict(at, ['fixture:a'], false);
        expect(refused.body).toMatchObject({ code: 'activity_unavailable' });
        expect(await callTool(at, 'fixture:a')).toEqual({ isError: true, text: STORE_UNREACHABLE_REFUSAL });
        // Reads and prompt gets are refused like the call (retryable, nothing asked upstream).
        const unreachable = { code: -32603, data: { reason: 'store_unreachable', retryable: true } };
        expect(await readAndGet(at)).toMatchObject({
          read: { error: { ...unreachable, message: expect.stringContaining(`Resource ${namespacedUri('fixture', NOTE_URI)} refused: the gateway's store is unreachable (retryable)`) } },
          get: { error: { ...unreachable, message: expect.stringContaining("Prompt fixture:greet refused: the gateway's store is unreachable (retryable)") } },
        });
      }
      await outage.end();
      ended = true;
    } finally {
      if (!ended) await outage.end();
    }
    for (const at of [a, b]) {
      await eventually(async () => expect(await reasons(at, ['fixture:a'])).toEqual(['ready']));
      expect(await callTool(at, 'fixture:a')).toMatchObject({ isError: false });
      expect(await readAndGet(at)).toEqual({ read: { text: 'the note' }, get: { text: 'hello from the fixture' } });
      expect(at.log()).toContain('lost the PostgreSQL change feed');
      expect(at.log()).toContain('change feed is back');
    }
  });
});

/**
 * The real store with the calls of these methods held at a gate while it is closed: what a slow
 * database does to one replica, on demand.
 */
function gatedStore(methods: readonly (keyof Store)[]) {
  let gate = Promise.resolve();
  let open = () => {};
  const held = new Set<PropertyKey>(methods);
  return {
    close() {
      gate = new Promise((resolve) => (open = resolve));
    },
    open: () => open(),
    wrap: (store: Store): Store =>
      new Proxy(store, {
        get(target, property, receiver) {
          const value: unknown = Reflect.get(target, property, receiver);
          if (typeof value !== 'function') return value;
          const method = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
          if (!held.has(property)) return method;
          return async (...args: unknown[]) => {
            await gate;
            return method(...args);
          };
        },
      }),
  };
}

const approvalOf = (g: TestGateway, tool: string) => g.gateway.runtime.current().snapshot.servers.get('fixture')?.approvals.get(tool)?.status;

describe('in-process gateways on one database, one of them slowed down', () => {
  it('keep a tool that appears before the baseline is recorded out of the baseline: pending', async () => {
    const dir = tempDir();
    const url = await server.createDatabase();
    // The upstream answers nothing for its first seconds: the gate below closes before its first listing.
    const file = dir.file('fixture.tools.json', toolsJson(['a']));
    const upstream = await startHttpFixture(['--tools', file, '--start-delay-ms', '3000']);
    undo.push(() => upstream.stop());
    const store = gatedStore(['listApprovals', 'listKnownServers', 'saveApprovals', 'markBaselineApproved']);
    const g = await startTestGateway(dir, { store: { kind: 'postgres', url }, servers: [{ name: 'fixture', url: upstream.url, quarantined: false }] }, { wrapStore: store.wrap });
    undo.push(() => g.close());
    store.close();
    // The first listing is the baseline (a approved), decided at once; what it reads and writes waits,
    // until after the next listing, which brings b.
    await waitForState(g.gateway, () => approvalOf(g, 'a') === 'approved');
    dir.file('fixture.tools.json', toolsJson(['a', 'b']));
    upstream.process.kill('SIGHUP');
    await waitForState(g.gateway, () => approvalOf(g, 'b') === 'pending');
    store.open();
    // Written as decided, listing by listing: b stays pending, in the store too.
    await eventually(async () => {
      const stored = await rows<{ tool: string; status: string }>(url, "SELECT tool, status FROM approvals WHERE server = 'fixture' ORDER BY tool");
      expect(stored).toEqual([
        { tool: 'a', status: 'approved' },
        { tool: 'b', status: 'pending' },
      ]);
      expect((await rows(url, "SELECT 1 FROM known_servers WHERE server = 'fixture' AND baseline_at IS NOT NULL")).length).toBe(1);
    });
    expect([approvalOf(g, 'a'), approvalOf(g, 'b')]).toEqual(['approved', 'pending']);
  });

  it('never let a replica write an approval back from its stale copy over another replica’s newer one', async () => {
    const dir = tempDir();
    const url = await server.createDatabase();
    const upstream = await fixture(dir, ['a']);
    // B's approval writes wait at a gate the test opens: a write B computed from what it knew before
    // A approved the new tool can only land after A's approval.
    const writes = gatedStore(['saveApprovals', 'markBaselineApproved']);
    const config = { store: { kind: 'postgres', url }, servers: [{ name: 'fixture', url: upstream.url, quarantined: false }] };
    const a = await startTestGateway(dir, { ...config, data_dir: `${dir.path}/a-data` });
    undo.push(() => a.close());
    const b = await startTestGateway(dir, { ...config, data_dir: `${dir.path}/b-data` }, { wrapStore: writes.wrap });
    undo.push(() => b.close());
    for (const g of [a, b]) await waitForState(g.gateway, (state) => state.snapshot.servers.get('fixture')?.tools.has('a') === true);

    writes.close();
    upstream.list(['a', 'b']);
    const pendingOn = (g: TestGateway) => waitForState(g.gateway, (state) => state.snapshot.servers.get('fixture')?.approvals.get('b')?.status === 'pending');
    await Promise.all([pendingOn(a), pendingOn(b)]);
    // A's approval either waits for B's section (its advisory lock shows as not granted) or, were there
    // no section, is done at once: the gate opens after whichever comes first.
    let done = false;
    const approved = a.gateway.runtime.approveTools('fixture', ['b']).finally(() => (done = true));
    while (!done && (await rows(url, "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")).length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    writes.open();
    await approved;

    const approvedOn = (g: TestGateway) => waitForState(g.gateway, (state) => state.snapshot.servers.get('fixture')?.approvals.get('b')?.status === 'approved');
    await Promise.all([approvedOn(a), approvedOn(b)]);
    // Settled: no write of B is left, and the store (what a third replica would read) says approved.
    await eventually(async () => {
      expect((await rows<{ status: string }>(url, "SELECT status FROM approvals WHERE server = 'fixture' AND tool = 'b'"))[0]?.status).toBe('approved');
      expect(a.gateway.runtime.current().snapshot.servers.get('fixture')?.approvals.get('b')?.status).toBe('approved');
      expect(b.gateway.runtime.current().snapshot.servers.get('fixture')?.approvals.get('b')?.status).toBe('approved');
    });
  });

  it('reconnect an upstream waiting for a login on every replica once the credential is stored on one', async () => {
    const dir = tempDir();
    const url = await server.createDatabase();
    const locked = await startHttpFixture(['--demo', '--require-token', 'upstream-secret-0123']);
    undo.push(() => locked.stop());
    // A reconnect backoff far past the test's bound: only the login's notification can reconnect B in time.
    const config = {
      store: { kind: 'postgres', url },
      reconnect_initial_delay_ms: 600_000,
      reconnect_max_delay_ms: 600_000,
      servers: [{ name: 'locked', url: locked.url, quarantined: false }],
    };
    const a = await startTestGateway(dir, { ...config, data_dir: `${dir.path}/a-data` });
    undo.push(() => a.close());
    const b = await startTestGateway(dir, { ...config, data_dir: `${dir.path}/b-data` });
    undo.push(() => b.close());
    const pendingAuth = (state: PublishedState) => state.snapshot.servers.get('locked')?.connection.state === 'pending_auth';
    for (const g of [a, b]) await waitForState(g.gateway, pendingAuth);

    const login = await restClient(a.gateway.origin!).call('POST', '/api/v1/servers/locked/login', { body: { token: 'upstream-secret-0123' } });
    expect(login.status).toBe(200);
    for (const g of [a, b]) await waitForState(g.gateway, serverReady('locked'), 30_000);
  });
});
