import { timingSafeEqual } from 'node:crypto';
import { computeScopeUnion, UnauthorizedError } from '@modelcontextprotocol/client';
import type { AuthProvider, FetchLike } from '@modelcontextprotocol/client';
import type { ResolvedServerConfig } from '../config/gateway-config.js';
import type { WaitClock } from '../preflight/wait-clock.js';
import type { Store } from '../store/store.js';
import { finishLogin, startLogin, stateDigest, type LoginStart, type LoginTarget } from './login-flow.js';
import { OAuthRecordCell } from './oauth-record-cell.js';
import { RefreshSchedule } from './refresh-schedule.js';
import { pendingLogin, storedDiscovery, storedTokens, withPending, withWantedScope } from './stored-oauth-parts.js';
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
  private readonly refreshes = new Map<string, Promise<RefreshOutcome>>();
  private readonly schedule: RefreshSchedule;
  private hooks: LoginHooks | undefined;

  constructor(private readonly options: OAuthLoginsOptions) {
    const redirectUri = `http://127.0.0.1:${options.callbackPort}${CALLBACK_PATH}`;
    for (const server of options.servers) {
      if (server.url === undefined) continue;
      this.targets.set(server.name, {
        cell: new OAuthRecordCell(options.store, server.name),
        serverUrl: server.url,
        redirectUri,
        clientName: options.clientName,
        clock: options.clock,
        ...(server.oauth === undefined ? {} : { client: server.oauth }),
        ...(options.fetchFn === undefined ? {} : { fetchFn: options.fetchFn }),
      });
    }
    this.schedule = new RefreshSchedule(options.clock, (server) => void this.refreshInBackground(server));
  }

  /** Connects the logins to the gateway and plans the refresh of every stored login. */
  async start(hooks: LoginHooks): Promise<void> {
    this.hooks = hooks;
    for (const [server, target] of this.targets) this.schedule.plan(server, await target.cell.read());
  }

  close(): void {
    this.schedule.clear();
    this.hooks = undefined;
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
   * The connection's side: the stored access token before every request, and on a 401 one refresh
   * (the transport then retries once); without a usable refresh token the 401 stands (pending_auth).
   */
  authProvider(server: string): AuthProvider | undefined {
    const target = this.targets.get(server);
    if (target === undefined) return undefined;
    return {
      token: async () => storedTokens(await target.cell.read())?.access_token,
      onUnauthorized: async () => {
        const outcome = await this.refresh(server);
        if (outcome.kind !== 'refreshed') throw new UnauthorizedError(outcome.reason);
        this.schedule.plan(server, await target.cell.read());
      },
    };
  }

  async startLogin(server: string, wwwAuthenticate: string | undefined): Promise<LoginStart & { readonly redirectUri?: string }> {
    const target = this.targets.get(server);
    if (target === undefined) return { ok: false, message: `server ${server} is not an HTTP upstream` };
    const started = await startLogin(target, wwwAuthenticate);
    return started.ok ? { ...started, redirectUri: target.redirectUri } : started;
  }

  /**
   * The redirect, authenticated by its state alone: the state is spent before anything else (a
   * second use, or a use after it expired, changes nothing), then the code is exchanged.
   */
  async finishLogin(params: CallbackParams): Promise<CallbackOutcome> {
    const found = await this.findPending(params.state);
    if (found === undefined) return { ok: false, code: 'invalid_state', message: 'This login state is unknown, was already used, or was replaced by a newer login: run mcpproxy auth login again' };
    const { server, target, pending } = found;
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
    const target = this.targets.get(server)!;
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

  private async findPending(state: string): Promise<{ server: string; target: LoginTarget; pending: NonNullable<ReturnType<typeof pendingLogin>> } | undefined> {
    const digest = Buffer.from(stateDigest(state), 'hex');
    for (const [server, target] of this.targets) {
      const pending = pendingLogin(await target.cell.read());
      if (pending === undefined) continue;
      const stored = Buffer.from(pending.state_sha256, 'hex');
      if (stored.length === digest.length && timingSafeEqual(stored, digest)) return { server, target, pending };
    }
    return undefined;
  }

  private log(line: string): void {
    this.options.log?.(`oauth: ${line}`);
  }
}

/** An authorization server's error code, as far as RFC 6749 allows one (it is quoted to the operator). */
function safeCode(error: string): string {
  return /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,64}$/.test(error) ? error : 'an unreadable error code';
}
