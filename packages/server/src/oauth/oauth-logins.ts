import { timingSafeEqual } from 'node:crypto';
import { computeScopeUnion, UnauthorizedError } from '@modelcontextprotocol/client';
import type { AuthProvider, FetchLike } from '@modelcontextprotocol/client';
import type { ResolvedServerConfig } from '../config/gateway-config.js';
import type { WaitClock } from '../preflight/wait-clock.js';
import type { Store } from '../store/store.js';
import { canonicalJson } from '../upstream/canonical-json.js';
import { GatewayCallback } from './gateway-callback.js';
import { finishLogin, startLogin, stateDigest, type LoginStart, type LoginTarget } from './login-flow.js';
import { OAuthRecordCell } from './oauth-record-cell.js';
import { RefreshSchedule } from './refresh-schedule.js';
import { pendingLogin, storedDiscovery, storedTokens, withPending, withWantedScope, type PendingLogin } from './stored-oauth-parts.js';
import { refreshStoredTokens, type RefreshOutcome } from './token-refresh.js';

/** The path of the loopback callback `mcpproxy auth login` listens on. */
export const CALLBACK_PATH = '/oauth/callback';

/** What the gateway does when a server's login changes. */
export interface LoginHooks {
  /** New tokens are stored: reconnect the upstream with them. */
  loggedIn(server: string): Promise<void>;
  /** The stored login can no longer be used: the server waits for a new one (pending_auth). */
  loginNeeded(server: string, reason: string): void;
  /** The credentials were deleted: reconnect without them. */
  loggedOut(server: string): Promise<void>;
}

export interface OAuthLoginsOptions {
  readonly store: Pick<Store, 'getUpstreamOAuth' | 'setUpstreamOAuth' | 'deleteUpstreamCredential'>;
  readonly servers: readonly ResolvedServerConfig[];
  readonly callbackPort: number;
  readonly clientName: string;
  readonly clock: WaitClock;
  readonly log?: (line: string) => void;
  /** The fetch used to reach authorization servers (the global one by default). */
  readonly fetchFn?: FetchLike;
  /**
   * Runs `section` while no other section of `key` runs, in this gateway or any other on the same
   * store (the store coordination's withExclusive): a refresh spends the refresh token, and
   * authorization servers rotate it, so gateways sharing one store refresh a server one at a time.
   * Default: at once (this gateway's own refreshes of a server are shared anyway).
   */
  readonly exclusive?: <T>(key: string, section: () => Promise<T>) => Promise<T>;
}

export type CallbackOutcome =
  | { readonly ok: true; readonly server: string }
  | { readonly ok: false; readonly code: 'invalid_state' | 'oauth_failed'; readonly message: string };

/**
 * Who receives a login's redirect on the loopback callback: the caller (`mcpproxy auth login` listens
 * there and hands it over) or the gateway itself (a login started in the operator UI, whose browser
 * has nothing else to come back to).
 */
export type RedirectReceiver = 'caller' | 'gateway';

export type OAuthLoginStart =
  | (LoginStart & { readonly ok: true; readonly redirectUri: string })
  | { readonly ok: false; readonly code: 'not_http' | 'callback_unavailable' | 'oauth_failed'; readonly message: string };

/** A pending login a reload ended, and why. */
export interface EndedLogin {
  readonly server: string;
  readonly why: 'removed' | 'changed';
}

export interface CallbackParams {
  readonly state: string;
  readonly code?: string;
  readonly iss?: string;
  readonly error?: string;
}

/**
 * The gateway's OAuth logins to its HTTP upstreams: it owns every flow (the store and the data
 * directory lock are here, not in the CLI), keeps each login's PKCE verifier and state digest,
 * authenticates a redirect by its state alone, gives each connection its access token, refreshes
 * tokens before they expire, and says when a login is needed again.
 */
export class OAuthLogins {
  private readonly targets = new Map<string, LoginTarget>();
  /**
   * One cell per server name for the gateway's lifetime: a reload that gives a server new login
   * settings, or removes and re-adds it, must not leave two caches of one stored record.
   */
  private readonly cells = new Map<string, OAuthRecordCell>();
  private readonly refreshes = new Map<string, Promise<RefreshOutcome>>();
  private readonly schedule: RefreshSchedule;
  private readonly redirectUri: string;
  /** The loopback callback while logins started with the gateway as their receiver wait; each ends at its expiry. */
  private readonly callback: GatewayCallback;
  private readonly awaitingRedirect = new Map<string, () => void>();
  private hooks: LoginHooks | undefined;

  constructor(private readonly options: OAuthLoginsOptions) {
    this.redirectUri = `http://127.0.0.1:${options.callbackPort}${CALLBACK_PATH}`;
    for (const server of options.servers.filter(isHttp)) this.targets.set(server.name, this.targetFor(server));
    this.schedule = new RefreshSchedule(options.clock, (server) => void this.refreshInBackground(server));
    this.callback = new GatewayCallback({
      port: options.callbackPort,
      path: CALLBACK_PATH,
      finish: (params) => this.finishLogin(params),
      onError: (error) => this.log(`login callback: ${error.message}`),
    });
  }

  /** Connects the logins to the gateway and plans the refresh of every stored login. */
  async start(hooks: LoginHooks): Promise<void> {
    this.hooks = hooks;
    for (const [server, target] of this.targets) this.schedule.plan(server, await target.cell.read());
  }

  async close(): Promise<void> {
    this.schedule.clear();
    this.hooks = undefined;
    for (const cancel of this.awaitingRedirect.values()) cancel();
    this.awaitingRedirect.clear();
    await this.callback.close();
  }

  /**
   * Another gateway on a shared store changed the server's record (every server's when undefined: the
   * change feed was down): read it again, and plan its refresh by what is stored now (a refresh there
   * moved the expiry; a login started there can be finished here).
   */
  async storedChanged(server?: string): Promise<void> {
    const targets = server === undefined ? [...this.targets] : this.targets.has(server) ? [[server, this.targets.get(server)!] as const] : [];
    await Promise.all(
      targets.map(async ([name, target]) => {
        const record = await target.cell.reload();
        if (this.hooks !== undefined) this.schedule.plan(name, record);
      }),
    );
  }

  /** Whether `server` is an HTTP upstream (only those log in). */
  has(server: string): boolean {
    return this.targets.has(server);
  }

  /**
   * A reload, before its servers reach the runtime: a server it adds as an HTTP upstream (or turns
   * into one) gets its login first, so that its first connection already carries a stored login, and
   * that login's refresh is planned.
   */
  async admit(servers: readonly ResolvedServerConfig[]): Promise<void> {
    for (const server of servers.filter(isHttp)) {
      if (this.targets.has(server.name)) continue;
      const target = this.targetFor(server);
      this.targets.set(server.name, target);
      if (this.hooks !== undefined) this.schedule.plan(server.name, await target.cell.read());
    }
  }

  /**
   * A reload, once the runtime applied it. A removed server (or one that is no longer an HTTP
   * upstream) loses its login: no refresh, and a login waiting for its redirect ends; its tokens and
   * client registration stay in the store, as after a restart on the new file, so re-adding it needs
   * no new login. A server whose url or oauth block changed keeps its tokens (a refresh uses the new
   * client settings), and its next login uses the new ones; a login started with the old ones ends.
   */
  async reconfigure(servers: readonly ResolvedServerConfig[]): Promise<EndedLogin[]> {
    const next = new Map(servers.filter(isHttp).map((server) => [server.name, this.targetFor(server)]));
    const ended: EndedLogin[] = [];
    for (const [name, target] of [...this.targets]) {
      const wanted = next.get(name);
      if (wanted === undefined) {
        this.targets.delete(name);
        this.schedule.cancel(name);
        this.stopAwaiting(name);
        if (await this.endPending(target)) ended.push({ server: name, why: 'removed' });
      } else if (loginSettings(target) !== loginSettings(wanted)) {
        this.targets.set(name, wanted);
        this.stopAwaiting(name);
        if (await this.endPending(target)) ended.push({ server: name, why: 'changed' });
      }
    }
    return ended;
  }

  /**
   * The connection's side: the stored access token before every request, and on a 401 one refresh
   * (the transport then retries once); without a usable refresh token the 401 stands (pending_auth).
   */
  authProvider(server: string): AuthProvider | undefined {
    if (!this.targets.has(server)) return undefined;
    // Looked up at each request: a reload may change or remove the server's login while it connects.
    return {
      token: async () => {
        const target = this.targets.get(server);
        return target === undefined ? undefined : storedTokens(await target.cell.read())?.access_token;
      },
      onUnauthorized: async () => {
        const outcome = await this.refresh(server);
        if (outcome.kind !== 'refreshed') throw new UnauthorizedError(outcome.reason);
        this.schedule.plan(server, await this.cellOf(server).read());
      },
    };
  }

  /**
   * Starts a login of `server`. With the gateway as the receiver it listens on the loopback callback
   * before the authorization URL exists, until the login finishes or expires. With the caller as the
   * receiver the gateway lets go of that port (the caller is about to listen there): a login still
   * waiting for the gateway then finishes only if its redirect reaches the caller, which hands it over.
   */
  async startLogin(server: string, wwwAuthenticate: string | undefined, receiver: RedirectReceiver = 'caller'): Promise<OAuthLoginStart> {
    const target = this.targets.get(server);
    if (target === undefined) return { ok: false, code: 'not_http', message: `server ${server} is not an HTTP upstream` };
    if (receiver === 'gateway') {
      const opened = await this.callback.open();
      if (!opened.ok) return { ok: false, code: 'callback_unavailable', message: opened.message };
    } else {
      for (const name of [...this.awaitingRedirect.keys()]) this.stopAwaiting(name);
    }
    const started = await startLogin(target, wwwAuthenticate);
    if (!started.ok) {
      if (receiver === 'gateway') this.closeCallbackWhenIdle();
      return { ok: false, code: 'oauth_failed', message: started.message };
    }
    if (receiver === 'gateway') {
      // A caller's login may have taken the port while this one was discovering.
      const listening = await this.callback.open();
      if (!listening.ok) return { ok: false, code: 'callback_unavailable', message: listening.message };
      this.awaitRedirect(server, started.expiresAt);
    }
    return { ...started, redirectUri: target.redirectUri };
  }

  /**
   * The redirect, authenticated by its state alone: the state is spent before anything else (a
   * second use, or a use after it expired, changes nothing), then the code is exchanged.
   */
  async finishLogin(params: CallbackParams): Promise<CallbackOutcome> {
    const found = await this.findPending(params.state);
    if (found === undefined) return { ok: false, code: 'invalid_state', message: 'This login state is unknown, was already used, or was replaced by a newer login: run mcpproxy auth login again' };
    // The state is spent whatever follows: the gateway stops waiting for this server's redirect.
    this.stopAwaiting(found.server);
    return this.finishFound(found, params);
  }

  private async finishFound({ server, target, pending }: PendingFound, params: CallbackParams): Promise<CallbackOutcome> {
    await target.cell.update((record) => withPending(record, undefined));
    if (pending.expires_at <= this.options.clock.now()) return { ok: false, code: 'invalid_state', message: `The login of ${server} expired: run mcpproxy auth login ${server} again` };
    if (params.error !== undefined) return { ok: false, code: 'oauth_failed', message: `The authorization server refused the login of ${server} (${safeCode(params.error)})` };
    if (params.code === undefined) return { ok: false, code: 'oauth_failed', message: `The redirect for ${server} carried neither a code nor an error` };
    const finished = await finishLogin(target, pending, params.code, params.iss);
    if (!finished.ok) return { ok: false, code: 'oauth_failed', message: `The login of ${server} failed: ${finished.message}` };
    await target.cell.update((record) => withWantedScope(record, undefined));
    // One credential at a time: the OAuth tokens replace a static bearer token.
    await this.options.store.deleteUpstreamCredential(server);
    this.schedule.plan(server, await target.cell.read());
    await this.hooks?.loggedIn(server);
    return { ok: true, server };
  }

  /** The upstream asked for more scope (403 insufficient_scope): remembered for the next login. */
  wantScope(server: string, scope: string): void {
    const target = this.targets.get(server);
    if (target === undefined || scope === '') return;
    target.cell
      .update((record) => withWantedScope(record, computeScopeUnion(storedDiscovery(record)?.wanted_scope, scope)))
      .catch((cause: unknown) => this.log(`${server}: remembering the scope ${scope} failed: ${cause instanceof Error ? cause.message : String(cause)}`));
  }

  /** Deletes the server's OAuth state (tokens, registration, a pending login) and its bearer credential. */
  async logout(server: string): Promise<void> {
    const target = this.targets.get(server);
    if (target === undefined) return;
    this.schedule.cancel(server);
    await target.cell.update(() => ({}));
    await this.options.store.deleteUpstreamCredential(server);
    await this.hooks?.loggedOut(server);
  }

  /** Forgets the OAuth tokens only (a static bearer token was stored instead). */
  async forgetTokens(server: string): Promise<void> {
    const target = this.targets.get(server);
    if (target === undefined) return;
    this.schedule.cancel(server);
    await target.cell.update((record) => {
      const { tokens: _tokens, tokens_expire_at: _expiry, ...rest } = record;
      return rest;
    });
  }

  /** What `auth status` shows of a server's OAuth login (never a token). */
  async describe(server: string): Promise<{ readonly expiresAt?: number; readonly refreshable: boolean; readonly scopes?: readonly string[]; readonly configuredClient: boolean } | undefined> {
    const target = this.targets.get(server);
    if (target === undefined) return undefined;
    const record = await target.cell.read();
    const tokens = storedTokens(record);
    if (tokens === undefined) return undefined;
    return {
      ...(record.tokens_expire_at === undefined ? {} : { expiresAt: record.tokens_expire_at }),
      refreshable: tokens.refresh_token !== undefined,
      ...(tokens.scope === undefined ? {} : { scopes: tokens.scope.split(' ').filter((scope) => scope !== '') }),
      configuredClient: target.client?.client_id !== undefined,
    };
  }

  /**
   * One refresh at a time per server: a 401 and the timer arriving together share it, and gateways on
   * one store take turns (`exclusive`). A gateway whose turn comes after another renewed the login
   * takes the stored tokens instead of spending the refresh token again.
   */
  private refresh(server: string): Promise<RefreshOutcome> {
    const running = this.refreshes.get(server);
    if (running !== undefined) return running;
    const target = this.targets.get(server);
    if (target === undefined) return Promise.resolve({ kind: 'login_needed', reason: `server ${server} is no longer an HTTP upstream of this gateway` });
    const exclusive = this.options.exclusive ?? ((_key, section) => section());
    const done = (async () => {
      // The tokens this gateway found wanting (expiring, or refused with a 401).
      const held = storedTokens(await target.cell.read());
      return exclusive(`oauth-refresh:${server}`, () => refreshStoredTokens(target.cell, target.client, () => this.options.clock.now(), held, this.options.fetchFn));
    })().finally(() => this.refreshes.delete(server));
    this.refreshes.set(server, done);
    return done;
  }

  private async refreshInBackground(server: string): Promise<void> {
    const target = this.targets.get(server);
    if (target === undefined || this.hooks === undefined) return;
    let outcome: RefreshOutcome;
    try {
      outcome = await this.refresh(server);
    } catch (cause) {
      outcome = { kind: 'failed', reason: `refreshing the login failed: ${cause instanceof Error ? cause.message : String(cause)}` };
    }
    const record = await target.cell.read();
    if (outcome.kind === 'refreshed') {
      this.schedule.plan(server, record);
      return;
    }
    this.log(`${server}: ${outcome.reason}`);
    if (outcome.kind === 'failed' && this.schedule.retry(server, record)) return;
    this.hooks?.loginNeeded(server, `${outcome.reason}: log in again with mcpproxy auth login ${server}`);
  }

  private async findPending(state: string): Promise<PendingFound | undefined> {
    const digest = Buffer.from(stateDigest(state), 'hex');
    for (const [server, target] of this.targets) {
      const pending = pendingLogin(await target.cell.read());
      if (pending === undefined) continue;
      const stored = Buffer.from(pending.state_sha256, 'hex');
      if (stored.length === digest.length && timingSafeEqual(stored, digest)) return { server, target, pending };
    }
    return undefined;
  }

  private awaitRedirect(server: string, expiresAt: number): void {
    this.awaitingRedirect.get(server)?.();
    this.awaitingRedirect.set(server, this.options.clock.setTimer(() => this.stopAwaiting(server), Math.max(0, expiresAt - this.options.clock.now())));
  }

  private stopAwaiting(server: string): void {
    const cancel = this.awaitingRedirect.get(server);
    if (cancel === undefined) return;
    cancel();
    this.awaitingRedirect.delete(server);
    this.closeCallbackWhenIdle();
  }

  /** Not awaited: the page of the redirect that ended the last wait may still be on its way out. */
  private closeCallbackWhenIdle(): void {
    if (this.awaitingRedirect.size === 0) void this.callback.close();
  }

  private targetFor(server: HttpServerConfig): LoginTarget {
    return {
      cell: this.cellOf(server.name),
      serverUrl: server.url,
      redirectUri: this.redirectUri,
      clientName: this.options.clientName,
      clock: this.options.clock,
      ...(server.oauth === undefined ? {} : { client: server.oauth }),
      ...(this.options.fetchFn === undefined ? {} : { fetchFn: this.options.fetchFn }),
    };
  }

  private cellOf(server: string): OAuthRecordCell {
    let cell = this.cells.get(server);
    if (cell === undefined) {
      cell = new OAuthRecordCell(this.options.store, server);
      this.cells.set(server, cell);
    }
    return cell;
  }

  /** Ends a login waiting for its redirect (its state is refused from now on); true when there was one. */
  private async endPending(target: LoginTarget): Promise<boolean> {
    try {
      if (pendingLogin(await target.cell.read()) === undefined) return false;
      await target.cell.update((record) => withPending(record, undefined));
      return true;
    } catch (cause) {
      this.log(`${target.cell.server}: ending its pending login failed: ${cause instanceof Error ? cause.message : String(cause)}`);
      return false;
    }
  }

  private log(line: string): void {
    this.options.log?.(`oauth: ${line}`);
  }
}

type HttpServerConfig = ResolvedServerConfig & { readonly url: string };

interface PendingFound {
  readonly server: string;
  readonly target: LoginTarget;
  readonly pending: PendingLogin;
}

/** Only HTTP upstreams log in. */
function isHttp(server: ResolvedServerConfig): server is HttpServerConfig {
  return server.url !== undefined;
}

/** What a login is made with besides the store: where the upstream is, and the configured client. */
function loginSettings(target: LoginTarget): string {
  return canonicalJson({ url: target.serverUrl, client: target.client ?? null });
}

/** An authorization server's error code, as far as RFC 6749 allows one (it is quoted to the operator). */
function safeCode(error: string): string {
  return /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(error) ? error : 'an unreadable error code';
}
