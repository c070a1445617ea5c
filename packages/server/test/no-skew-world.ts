// The live world of the no-skew model test: a real in-process gateway over a fresh data directory,
// one stdio fixture upstream `fx` whose tool list lives in a file (re-read on SIGHUP), whose start
// can be made to hang (a delay file read at every start), and which counts every JSON-RPC message
// it receives. `observe` asks every verdict surface and makes a real tools/call per tool on both
// revisions, so the test can compare what the verdicts promise with what reached the upstream.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXTENSION_ID } from '@mcpproxy/schema';
import type { RuntimeServerSnapshot } from '../src/state/gateway-runtime.js';
import { FIXTURE_MAIN, readCount, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { negotiating, withRawSession, type RawEra } from './raw-mcp-session.js';

export const SERVER = 'fx';
const TOKEN = 'no-skew-agent-secret-0123456789';
const ADMIN_KEY = 'no-skew-admin-key-0123456789';
/** A bound that only a broken gateway reaches; every wait ends on a published state. */
const SETTLE_MS = 30_000;
const HUNG_START_MS = 600_000;

/**
 * What the test believes the upstream lists: tool name -> definition version (its description);
 * version 0 is a malformed definition (inputSchema: null), which the gateway must not serve.
 */
export type Listing = ReadonlyMap<string, number>;
export const MALFORMED = 0;

export interface Observation {
  /** Per tool ID: 'ready' or the reason code, by surface. */
  readonly verdicts: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Per tool ID: whether the tools/call of each revision reached the upstream (its echo came back). */
  readonly reached: Readonly<Record<string, Readonly<Record<RawEra, boolean>>>>;
  /** Messages the upstream received during the calls, and how many calls came back echoed. */
  readonly upstreamMessages: number;
  readonly echoedCalls: number;
  /** The gateway's state of the server when the observation started (for the failure message). */
  readonly state: string;
}

export function toolSpecs(listing: Listing): Record<string, unknown>[] {
  return [...listing].map(([name, version]) => ({ name, description: `v${version}`, echo: true, ...(version === MALFORMED ? { inputSchema: null } : {}) }));
}

export class NoSkewWorld {
  private constructor(
    private readonly dir: TempDir,
    readonly gateway: TestGateway,
    private readonly files: { readonly tools: string; readonly pid: string; readonly delay: string; readonly count: string },
  ) {}

  static async start(listing: Listing): Promise<NoSkewWorld> {
    const dir = new TempDir();
    const files = {
      tools: dir.file(`${SERVER}.tools.json`, JSON.stringify(toolSpecs(listing))),
      pid: join(dir.path, `${SERVER}.pid`),
      delay: dir.file(`${SERVER}.delay`, '0'),
      count: join(dir.path, `${SERVER}.count`),
    };
    const fixture = [FIXTURE_MAIN, '--tools', files.tools, '--name', SERVER, '--pid-file', files.pid, '--count-file', files.count];
    try {
      const gateway = await startTestGateway(dir, {
        api_key: ADMIN_KEY,
        tool_quarantine: true,
        // A hung start never times out into `error` within a run.
        upstream_timeout_ms: 120_000,
        reconnect_initial_delay_ms: 50,
        reconnect_max_delay_ms: 200,
        agent_tokens: [{ name: 'agent', token: TOKEN, allowed_servers: ['*'] }],
        servers: [
          {
            name: SERVER,
            quarantined: false,
            // The delay is read at every start, so a later (re)start can hang while the first did not.
            command: 'sh',
            args: ['-c', 'exec "$0" "$@" --start-delay-ms "$(cat "$DELAY_FILE")"', process.execPath, ...fixture],
            env: { DELAY_FILE: files.delay },
          },
        ],
      });
      const world = new NoSkewWorld(dir, gateway, files);
      await world.settle({ listing, enabled: true, hung: false });
      return world;
    } catch (error) {
      dir.remove();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.gateway.close();
    this.dir.remove();
  }

  server(): RuntimeServerSnapshot {
    const server = this.gateway.gateway.runtime.current().snapshot.servers.get(SERVER);
    if (server === undefined) throw new Error(`no server ${SERVER} in the published state`);
    return server;
  }

  /** An operator action through REST; its status is returned (a refusal is part of the model, not a failure). */
  async rest(method: string, path: string, body?: unknown): Promise<number> {
    const response = await fetch(`${this.gateway.gateway.origin ?? ''}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': ADMIN_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    await response.arrayBuffer();
    if (response.status >= 500) throw new Error(`${method} ${path} answered ${response.status}`);
    return response.status;
  }

  /** Rewrites the tools file; `signal` also tells the running upstream to re-read it (list_changed). */
  writeListing(listing: Listing, signal: boolean): void {
    writeFileSync(this.files.tools, JSON.stringify(toolSpecs(listing)));
    if (signal) this.signal('SIGHUP');
  }

  setHungStart(hung: boolean): void {
    writeFileSync(this.files.delay, hung ? String(HUNG_START_MS) : '0');
  }

  /** Kills the upstream process; resolves once the gateway has seen the connection go. */
  async kill(): Promise<void> {
    this.signal('SIGKILL');
    await this.waitFor((server) => server.connection.state !== 'ready', 'the gateway to see the upstream die');
  }

  /** Waits until the published state is the stable one the model describes. */
  async settle(model: { readonly listing: Listing; readonly enabled: boolean; readonly hung: boolean }): Promise<void> {
    if (!model.enabled) return this.waitFor((server) => !server.enabled, 'the server to be disabled');
    if (model.hung) {
      // Not ready, whichever way: a restart into a hung start reads `connecting`; a lost connection
      // keeps `disconnected` (or a failed one `error`) through its retries until one succeeds.
      await this.waitFor((server) => server.enabled && server.connection.state !== 'ready' && server.connection.state !== undefined, 'a hung start (not ready)');
      // The hung process resets its message count when it starts (and reads nothing until its
      // delay ends): wait until it runs, so the counts an observation compares are its own.
      return this.poll(() => this.alive() && readCount(this.files.count) === 0, 'the hung upstream to start');
    }
    return this.waitFor(
      (server) => server.enabled && server.connection.state === 'ready' && listingMatches(server, model.listing),
      `ready with the listing ${JSON.stringify([...model.listing])}`,
    );
  }

  /** Every verdict surface for every ID, then one real tools/call per ID on each revision. */
  async observe(ids: readonly string[]): Promise<Observation> {
    const state = this.server().connection.state ?? 'none';
    const verdicts: Record<string, Record<string, string>> = Object.fromEntries(ids.map((id) => [id, {}]));
    const record = (surface: string, tools: readonly { id: string; status: string; reason?: string }[]) => {
      for (const tool of tools) {
        const entry = verdicts[tool.id];
        if (entry === undefined) throw new Error(`${surface} answered for an ID nobody asked: ${tool.id}`);
        entry[surface] = tool.reason ?? tool.status;
      }
    };
    record('rest_agent', await this.restPreflight(ids));
    for (const era of ['legacy', 'modern'] as const) record(`rider_${era}`, await this.rider(ids, era));

    const before = readCount(this.files.count);
    const reached: Record<string, Record<RawEra, boolean>> = {};
    let echoedCalls = 0;
    for (const era of ['legacy', 'modern'] as const) {
      await withRawSession(this.gateway.url, era, { token: TOKEN }, async (session) => {
        for (const id of ids) {
          const nonce = `call-${era}-${id}-${Math.random().toString(36).slice(2)}`;
          const answer = await session.request('tools/call', { name: id, arguments: { nonce } });
          const text = (answer.result?.content?.[0]?.text as string | undefined) ?? '';
          const echoed = answer.result?.isError !== true && text.includes(nonce);
          if (echoed) echoedCalls += 1;
          (reached[id] ??= { legacy: false, modern: false })[era] = echoed;
        }
      });
    }
    return { verdicts, reached, upstreamMessages: readCount(this.files.count) - before, echoedCalls, state };
  }

  private async restPreflight(ids: readonly string[]): Promise<{ id: string; status: string; reason?: string }[]> {
    const response = await fetch(`${this.gateway.gateway.origin ?? ''}/api/v1/preflight`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ tools: ids.map((id) => ({ id })) }),
    });
    const body = (await response.json()) as { tools?: { id: string; status: string; reason?: string }[] };
    if (response.status !== 200 || body.tools === undefined) throw new Error(`REST preflight answered ${response.status}: ${JSON.stringify(body)}`);
    return body.tools;
  }

  private async rider(ids: readonly string[], era: RawEra): Promise<{ id: string; status: string; reason?: string }[]> {
    const answer = await withRawSession(this.gateway.url, era, { token: TOKEN, capabilities: negotiating(era) }, (session) =>
      session.request('tools/list', { _meta: { [EXTENSION_ID]: { tools: ids.map((id) => ({ id })) } } }),
    );
    const facet = answer.result?._meta?.[EXTENSION_ID] as { tools?: { id: string; status: string; reason?: string }[] } | undefined;
    if (facet?.tools === undefined) throw new Error(`the ${era} rider gave no verdict: ${answer.text}`);
    return facet.tools;
  }

  private alive(): boolean {
    try {
      process.kill(Number(readFileSync(this.files.pid, 'utf8').trim()), 0);
      return true;
    } catch {
      return false;
    }
  }

  /** For what the gateway publishes no event about (the upstream's own files): a bounded poll. */
  private async poll(condition: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + SETTLE_MS;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`the world never settled: waited for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private signal(signal: NodeJS.Signals): void {
    process.kill(Number(readFileSync(this.files.pid, 'utf8').trim()), signal);
  }

  private async waitFor(predicate: (server: RuntimeServerSnapshot) => boolean, what: string): Promise<void> {
    try {
      await waitForState(this.gateway.gateway, (state) => {
        const server = state.snapshot.servers.get(SERVER);
        return server !== undefined && predicate(server);
      }, SETTLE_MS);
    } catch {
      const server = this.server();
      const seen = { state: server.connection.state, enabled: server.enabled, last_error: server.connection.last_error, tools: [...server.tools.keys()] };
      throw new Error(`the gateway never settled: waited for ${what}, saw ${JSON.stringify(seen)}`);
    }
  }
}

function listingMatches(server: RuntimeServerSnapshot, listing: Listing): boolean {
  let malformed = 0;
  for (const [name, version] of listing) {
    if (version === MALFORMED) {
      malformed += 1;
      if (server.invalid_tools?.has(name) !== true) return false;
    } else if (server.tools.get(name)?.definition['description'] !== `v${version}`) return false;
  }
  return server.tools.size + malformed === listing.size && (server.invalid_tools?.size ?? 0) === malformed;
}
