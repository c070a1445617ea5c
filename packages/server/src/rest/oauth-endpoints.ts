import { checkValue, strictValidators } from '@mcpproxy/schema';
import type { AuthStatus, OAuthLoginStarted } from '@mcpproxy/schema';
import { compareCodeUnits } from '../mcp/served-listing.js';
import type { OAuthLogins, RedirectReceiver } from '../oauth/oauth-logins.js';
import type { GatewayRuntime, RuntimeServerSnapshot } from '../state/gateway-runtime.js';
import type { Store } from '../store/store.js';
import { apiError } from './api-error.js';
import type { RestEndpoint, RestReply, RestRequest } from './rest-endpoint.js';
import { serverInfo } from './server-inventory.js';
import { servedNames } from './served-set.js';

export interface OAuthEndpointsOptions {
  readonly runtime: GatewayRuntime;
  readonly store: Pick<Store, 'getUpstreamCredential'>;
  readonly logins: OAuthLogins;
}

/**
 * The OAuth logins over REST: start (operator), the redirect's hand-over (authenticated by its state
 * alone: a browser carries no admin key), logout and status (operator). No answer carries a token.
 */
export function oauthEndpoints(options: OAuthEndpointsOptions): RestEndpoint[] {
  return [startEndpoint(options), callbackEndpoint(options), logoutEndpoint(options), statusEndpoint(options)];
}

function startEndpoint({ runtime, logins }: OAuthEndpointsOptions): RestEndpoint {
  return {
    method: 'POST',
    path: '/servers/{name}/oauth/login',
    operatorOnly: true,
    query: ['callback'],
    async handle(request) {
      const receiver = redirectReceiver(request);
      if (receiver === undefined) return apiError(400, 'invalid_body', 'Query parameter callback: expected caller or gateway', 'callback');
      const found = httpServer(runtime, request);
      if (!found.ok) return found.reply;
      const started = await logins.startLogin(found.server.name, found.server.connection.www_authenticate, receiver);
      if (!started.ok) {
        const refusal = `Cannot start the login of ${found.server.name}: ${started.message}`;
        return started.code === 'callback_unavailable' ? apiError(409, 'conflict', refusal, 'callback') : apiError(502, 'oauth_failed', refusal, 'name');
      }
      const body: OAuthLoginStarted = {
        server: found.server.name,
        authorization_url: started.authorizationUrl.href,
        redirect_uri: started.redirectUri,
        expires_at: new Date(started.expiresAt).toISOString(),
      };
      return { status: 200, body };
    },
  };
}

function callbackEndpoint({ logins }: OAuthEndpointsOptions): RestEndpoint {
  return {
    method: 'POST',
    path: '/oauth/callback',
    operatorOnly: false,
    public: true,
    async handle(request) {
      const body = await request.body();
      if (!body.ok) return apiError(body.status, body.code, body.message, body.path);
      const checked = checkValue(strictValidators.OAuthCallback, body.value);
      if (!checked.ok) {
        const issue = checked.issues[0];
        return apiError(400, 'invalid_body', `Expected the redirect's query as { "state", "code" | "error", "iss"? }${issue === undefined ? '' : `: ${issue.path || '/'} ${issue.message}`}`, issue?.path ?? '');
      }
      const { state, code, iss, error } = checked.value;
      const outcome = await logins.finishLogin({ state, ...(code === undefined ? {} : { code }), ...(iss === undefined ? {} : { iss }), ...(error === undefined ? {} : { error }) });
      if (!outcome.ok) return apiError(outcome.code === 'invalid_state' ? 400 : 502, outcome.code, outcome.message, outcome.code === 'invalid_state' ? '/state' : '');
      return { status: 200, body: { server: outcome.server } };
    },
  };
}

function logoutEndpoint({ runtime, logins }: OAuthEndpointsOptions): RestEndpoint {
  return {
    method: 'POST',
    path: '/servers/{name}/logout',
    operatorOnly: true,
    async handle(request) {
      const found = httpServer(runtime, request);
      if (!found.ok) return found.reply;
      try {
        await logins.logout(found.server.name);
      } catch {
        return apiError(503, 'state_unavailable', 'The credentials could not be deleted; nothing was changed', 'name');
      }
      const state = runtime.current();
      const current = state.snapshot.servers.get(found.server.name) ?? found.server;
      return { status: 200, body: serverInfo(state, current, servedNames(state, request.principal.scope)) };
    },
  };
}

function statusEndpoint({ runtime, store, logins }: OAuthEndpointsOptions): RestEndpoint {
  return {
    method: 'GET',
    path: '/auth',
    operatorOnly: true,
    async handle() {
      const servers = [...runtime.current().snapshot.servers.values()].sort((a, b) => compareCodeUnits(a.name, b.name));
      try {
        return { status: 200, body: { servers: await Promise.all(servers.map((server) => authStatus(server, store, logins))) } };
      } catch {
        return apiError(503, 'state_unavailable', 'The stored logins could not be read', '');
      }
    },
  };
}

async function authStatus(server: RuntimeServerSnapshot, store: Pick<Store, 'getUpstreamCredential'>, logins: OAuthLogins): Promise<AuthStatus> {
  const base = { name: server.name, transport: server.transport };
  if (server.transport !== 'http') return { ...base, login: 'not_needed' };
  const needed = server.connection.state === 'pending_auth';
  const reason = needed && server.connection.last_error !== undefined ? { last_error: server.connection.last_error } : {};
  const oauth = await logins.describe(server.name);
  if (oauth !== undefined) {
    return {
      ...base,
      login: needed ? 'needed' : 'logged_in',
      method: 'oauth',
      client: oauth.configuredClient ? 'configured' : 'registered',
      ...(oauth.expiresAt === undefined ? {} : { expires_at: new Date(oauth.expiresAt).toISOString() }),
      refreshable: oauth.refreshable,
      ...(oauth.scopes === undefined ? {} : { scopes: [...oauth.scopes] }),
      ...reason,
    };
  }
  if ((await store.getUpstreamCredential(server.name)) !== undefined) return { ...base, login: needed ? 'needed' : 'logged_in', method: 'token', ...reason };
  return { ...base, login: needed ? 'needed' : 'not_needed', ...reason };
}

/** `?callback=gateway`: the gateway receives the redirect itself (a login started in the operator UI); the caller does by default. */
function redirectReceiver(request: RestRequest): RedirectReceiver | undefined {
  const value = request.query.get('callback') ?? 'caller';
  return value === 'caller' || value === 'gateway' ? value : undefined;
}

function httpServer(runtime: GatewayRuntime, request: RestRequest): { ok: true; server: RuntimeServerSnapshot } | { ok: false; reply: RestReply } {
  const name = request.params['name']!;
  const server = runtime.current().snapshot.servers.get(name);
  if (server === undefined) return { ok: false, reply: apiError(404, 'not_found', `No server named ${name} is configured`, 'name') };
  if (server.transport !== 'http') return { ok: false, reply: apiError(409, 'conflict', `Server ${name} is a stdio server: logins apply to HTTP upstreams`, 'name') };
  return { ok: true, server };
}
