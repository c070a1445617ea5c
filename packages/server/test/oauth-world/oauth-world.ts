// One OAuth world for the gateway-level tests: the real authorization server, an upstream that
// accepts only its tokens, and a real in-process gateway over a temp data directory, all on
// 127.0.0.1:0, with one manual clock for all three. The gateway takes it as its injected clock;
// oidc-provider cannot take one, so the test process's Date is set to the same time (only Date is
// faked: timers and I/O run as usual) and the tokens it stamps live on the test's time line.
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { vi } from 'vitest';
import type { GatewayOptions } from '../../src/gateway.js';
import type { PublishedState } from '../../src/state/gateway-runtime.js';
import { connectClient, startTestGateway, TempDir, waitForState, type TestGateway } from '../gateway-harness.js';
import { ManualClock } from '../manual-clock.js';
import { startAuthorizationServer, type AuthorizationServer, type AuthorizationServerOptions } from './authorization-server.js';
import { followAuthorization } from './headless-browser.js';
import { startProtectedUpstream, type ProtectedUpstream } from './protected-upstream.js';

export const API_KEY = 'test-admin-key-0123456789';

export interface RestAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly text: string;
}

export class OAuthWorld {
  readonly clock = new ManualClock();
  /** The real time the manual clock's zero stands for (the authorization server stamps tokens in real time). */
  readonly epoch = Date.now();
  readonly logs: string[] = [];
  readonly answers: string[] = [];
  gateway!: TestGateway;

  private constructor(
    readonly dir: TempDir,
    readonly as: AuthorizationServer,
    readonly upstream: ProtectedUpstream,
  ) {}

  static async start(asOptions: AuthorizationServerOptions = {}): Promise<OAuthWorld> {
    const as = await startAuthorizationServer(asOptions);
    const upstream = await startProtectedUpstream({ issuer: as.issuer });
    const world = new OAuthWorld(new TempDir(), as, upstream);
    vi.useFakeTimers({ toFake: ['Date'], now: world.epoch });
    return world;
  }

  /**
   * Starts (or restarts, on the same data directory) the gateway with `web` pointing at the upstream;
   * `config` adds top-level settings (a shared store, a free oauth_callback_port: nothing listens on it
   * unless a login asks the gateway to).
   */
  async startGateway(server: Record<string, unknown> = {}, options: GatewayOptions = {}, config: Record<string, unknown> = {}): Promise<void> {
    this.gateway = await this.startReplica(this.dir, server, options, config);
  }

  /** One more gateway of this world, over its own data directory in `dir`, on the world's clock. */
  startReplica(dir: TempDir, server: Record<string, unknown> = {}, options: GatewayOptions = {}, config: Record<string, unknown> = {}): Promise<TestGateway> {
    return startTestGateway(
      dir,
      {
        oauth_callback_port: 8799,
        // A 401 upstream is retried in the background; keep those retries out of the tests' way.
        reconnect_initial_delay_ms: 60_000,
        reconnect_max_delay_ms: 60_000,
        servers: [{ name: 'web', url: this.upstream.url, quarantined: false, ...server }],
        ...config,
      },
      { clock: this.clock, log: (line) => this.logs.push(line), ...options },
    );
  }

  /** Moves the test's time forward: the gateway's timers fire, and tokens age for both servers. */
  async advance(ms: number): Promise<void> {
    vi.setSystemTime(this.epoch + this.clock.now() + ms);
    await this.clock.advance(ms);
  }

  /**
   * Polls a condition outside the gateway's state (the authorization server's counters, the store).
   * Its bound is on performance.now(): Date is the manual clock's here.
   */
  async until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!(await condition())) {
      if (performance.now() > deadline) throw new Error('condition not reached');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    vi.useRealTimers();
    await this.gateway?.close();
    await this.upstream.close();
    await this.as.close();
    this.dir.remove();
  }

  get origin(): string {
    return this.gateway.gateway.origin!;
  }

  async rest(method: string, path: string, body?: unknown, headers: Record<string, string> = { 'x-api-key': API_KEY }): Promise<RestAnswer> {
    const response = await fetch(`${this.origin}/api/v1${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    this.answers.push(text);
    return { status: response.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>), text };
  }

  waitFor(predicate: (state: PublishedState) => boolean): Promise<PublishedState> {
    return waitForState(this.gateway.gateway, predicate, 20_000);
  }

  waitForWeb(state: string): Promise<PublishedState> {
    return this.waitFor((published) => published.snapshot.servers.get('web')?.connection.state === state);
  }

  /** Starts a login over REST and lets the "browser" go through the authorization server: the redirect's query. */
  async authorize(): Promise<{ started: Record<string, unknown>; query: URLSearchParams }> {
    const started = await this.rest('POST', '/servers/web/oauth/login');
    if (started.status !== 200) throw new Error(`start: ${started.status} ${started.text}`);
    const visit = await followAuthorization(started.body['authorization_url'] as string, { redirectPrefix: started.body['redirect_uri'] as string });
    return { started: started.body, query: visit.callback.searchParams };
  }

  /** The redirect's query handed to the gateway as the loopback callback would, without a credential. */
  callback(query: URLSearchParams): Promise<RestAnswer> {
    return this.rest('POST', '/oauth/callback', Object.fromEntries(query), {});
  }

  /** A whole login: start, browser, callback, and the upstream ready with the new tokens. */
  async login(): Promise<void> {
    const { query } = await this.authorize();
    const finished = await this.callback(query);
    if (finished.status !== 200) throw new Error(`callback: ${finished.status} ${finished.text}`);
    await this.waitForWeb('ready');
  }

  async preflight(id = 'web:echo'): Promise<Record<string, unknown>> {
    const answer = await this.rest('POST', '/preflight', { tools: [{ id }] });
    return (answer.body['tools'] as Record<string, unknown>[])[0]!;
  }

  /** Calls the upstream's echo through the world's gateway, or the gateway at `url`. */
  async callEcho(text: string, url = this.gateway.url): Promise<string> {
    const client: Client = await connectClient(url, 'legacy');
    try {
      const result = await client.callTool({ name: 'web:echo', arguments: { text } });
      return JSON.stringify(result);
    } finally {
      await client.close();
    }
  }

  get storePath(): string {
    return join(this.dir.path, 'data', 'mcpproxy.db');
  }
}
