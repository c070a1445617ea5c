import { createHash, randomBytes } from 'node:crypto';
import { auth, computeScopeUnion, extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import type { ResolvedOAuthClient } from '../config/oauth-client-secrets.js';
import type { WaitClock } from '../preflight/wait-clock.js';
import type { OAuthRecordCell } from './oauth-record-cell.js';
import { describeOAuthFailure } from './oauth-failure.js';
import { storedDiscovery, storedTokens, withPending, type PendingLogin } from './stored-oauth-parts.js';
import { UpstreamOAuthProvider } from './upstream-oauth-provider.js';

/** How long the state of a started login is accepted. */
export const LOGIN_TTL_MS = 10 * 60_000;

/** One upstream as its login sees it. */
export interface LoginTarget {
  readonly cell: OAuthRecordCell;
  /** The upstream's MCP endpoint: the protected resource. */
  readonly serverUrl: string;
  readonly redirectUri: string;
  readonly client?: ResolvedOAuthClient;
  readonly clientName: string;
  readonly clock: WaitClock;
  readonly fetchFn?: FetchLike;
}

export type LoginStart =
  | { readonly ok: true; readonly authorizationUrl: URL; readonly expiresAt: number }
  | { readonly ok: false; readonly message: string };

export type LoginFinish = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** The SHA-256 of a state, as a pending login keeps it (the state itself is never stored). */
export function stateDigest(state: string): string {
  return createHash('sha256').update(state, 'utf8').digest('hex');
}

/**
 * Starts a login with the SDK's auth(): discovery (RFC 9728 from the upstream's WWW-Authenticate,
 * then RFC 8414 / OpenID Connect), dynamic registration (RFC 7591) when no client is configured or
 * registered, then the authorization URL with PKCE (S256), a fresh state, the scopes and the
 * resource indicator (RFC 8707), and any scope a 403 insufficient_scope asked for since the last login.
 * A stored refresh token is not used (the person asked to log in).
 * The verifier and the state's digest are stored as the pending login, replacing any earlier one.
 */
export async function startLogin(target: LoginTarget, wwwAuthenticate: string | undefined): Promise<LoginStart> {
  const state = randomBytes(32).toString('base64url');
  const provider = new UpstreamOAuthProvider({ ...providerOptions(target), step: { state } });
  const challenge = wwwAuthenticate === undefined ? {} : extractWWWAuthenticateParams(new Response(null, { status: 401, headers: { 'www-authenticate': wwwAuthenticate } }));
  const scopes = target.client?.scopes;
  const asked = scopes !== undefined && scopes.length > 0 ? scopes.join(' ') : challenge.scope;
  // After a 403 insufficient_scope: what was granted and what the upstream asked for, so nothing is lost.
  const record = await target.cell.read();
  const wanted = storedDiscovery(record)?.wanted_scope;
  const scope = wanted === undefined ? asked : computeScopeUnion(asked, storedTokens(record)?.scope, wanted);
  try {
    // A changed authorization server (migration) must be found again, not read from the last login.
    await provider.invalidateCredentials('discovery');
    const result = await auth(provider, {
      serverUrl: target.serverUrl,
      ...(challenge.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
      ...(scope === undefined ? {} : { scope }),
      forceReauthorization: true,
      ...(target.fetchFn === undefined ? {} : { fetchFn: target.fetchFn }),
    });
    const url = provider.authorizationUrl();
    const verifier = provider.startedVerifier();
    if (result !== 'REDIRECT' || url === undefined || verifier === undefined) {
      return { ok: false, message: 'the authorization server gave no authorization URL' };
    }
    const expiresAt = target.clock.now() + LOGIN_TTL_MS;
    const pending: PendingLogin = { state_sha256: stateDigest(state), code_verifier: verifier, redirect_uri: target.redirectUri, expires_at: expiresAt };
    await target.cell.update((record) => withPending(record, pending));
    return { ok: true, authorizationUrl: url, expiresAt };
  } catch (cause) {
    return { ok: false, message: describeOAuthFailure(cause) };
  }
}

/**
 * Finishes a login whose pending record the caller has already spent: auth() checks the redirect's
 * issuer (RFC 9207) against the authorization server the login started with and exchanges the code
 * with the stored PKCE verifier; the tokens are stored through the provider.
 */
export async function finishLogin(target: LoginTarget, pending: PendingLogin, code: string, iss: string | undefined): Promise<LoginFinish> {
  const provider = new UpstreamOAuthProvider({ ...providerOptions(target), redirectUri: pending.redirect_uri, step: { codeVerifier: pending.code_verifier } });
  try {
    const result = await auth(provider, {
      serverUrl: target.serverUrl,
      authorizationCode: code,
      ...(iss === undefined ? {} : { iss }),
      ...(target.fetchFn === undefined ? {} : { fetchFn: target.fetchFn }),
    });
    return result === 'AUTHORIZED' ? { ok: true } : { ok: false, message: 'the authorization server did not issue tokens' };
  } catch (cause) {
    return { ok: false, message: describeOAuthFailure(cause) };
  }
}

function providerOptions(target: LoginTarget) {
  return {
    cell: target.cell,
    redirectUri: target.redirectUri,
    clientName: target.clientName,
    clock: target.clock,
    ...(target.client === undefined ? {} : { client: target.client }),
  };
}
