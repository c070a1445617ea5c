import { OAuthError, OAuthErrorCode, refreshAuthorization } from '@modelcontextprotocol/client';
import type { FetchLike, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { ResolvedOAuthClient } from '../config/oauth-client-secrets.js';
import type { OAuthRecordCell } from './oauth-record-cell.js';
import { storedDiscovery, storedTokens, withoutTokens, withTokens } from './stored-oauth-parts.js';

export type RefreshOutcome =
  | { readonly kind: 'refreshed' }
  /** The stored login cannot be used again: a person must log in (the tokens are deleted). */
  | { readonly kind: 'login_needed'; readonly reason: string }
  /** It did not work this time (the authorization server unreachable, a 5xx): the tokens stay. */
  | { readonly kind: 'failed'; readonly reason: string };

/** Errors with which an authorization server says the grant or the client is no longer good. */
const GRANT_GONE: ReadonlySet<string> = new Set([OAuthErrorCode.InvalidGrant, OAuthErrorCode.InvalidClient, OAuthErrorCode.UnauthorizedClient]);

/**
 * Trades the stored refresh token for new tokens at the authorization server the login used, with
 * the SDK's refreshAuthorization (the same client authentication and resource indicator as the
 * login). A refusal of the grant deletes the tokens; anything else leaves them for another try.
 * Messages never quote a token.
 *
 * `held` are the tokens the caller wanted renewed (undefined: it held none). When the store holds others by now, another gateway
 * on the store renewed the login (or someone logged in again) meanwhile: those are the result, and the
 * refresh token they replaced is not spent a second time (a rotated one would be refused, and some
 * authorization servers revoke the whole grant when a spent refresh token comes back).
 */
export async function refreshStoredTokens(
  cell: OAuthRecordCell,
  configured: ResolvedOAuthClient | undefined,
  now: () => number,
  held: StoredOAuthTokens | undefined,
  fetchFn?: FetchLike,
): Promise<RefreshOutcome> {
  const record = await cell.reload();
  const tokens = storedTokens(record);
  if (tokens === undefined) return { kind: 'login_needed', reason: 'no login is stored' };
  if (held === undefined || tokens.access_token !== held.access_token || tokens.refresh_token !== held.refresh_token) return { kind: 'refreshed' };
  if (tokens.refresh_token === undefined) return { kind: 'login_needed', reason: 'the login cannot be renewed: the authorization server gave no refresh token' };
  const discovery = storedDiscovery(record);
  const server = discovery?.state;
  const client = clientOf(configured, record.client as StoredOAuthClientInformation | undefined);
  if (server === undefined || client === undefined) return { kind: 'login_needed', reason: 'the stored login lacks its authorization server or client' };
  try {
    const refreshed = await refreshAuthorization(server.authorizationServerUrl, {
      ...(server.authorizationServerMetadata === undefined ? {} : { metadata: server.authorizationServerMetadata }),
      clientInformation: client,
      refreshToken: tokens.refresh_token,
      ...(discovery?.resource === undefined ? {} : { resource: discovery.resource }),
      ...(fetchFn === undefined ? {} : { fetchFn }),
    });
    const issued = now();
    await cell.update((current) => withTokens(current, { ...refreshed, ...(tokens.issuer === undefined ? {} : { issuer: tokens.issuer }) }, issued));
    return { kind: 'refreshed' };
  } catch (cause) {
    if (cause instanceof OAuthError && GRANT_GONE.has(cause.code)) {
      await cell.update(withoutTokens);
      return { kind: 'login_needed', reason: `the authorization server refused to refresh the login (${cause.code})` };
    }
    return { kind: 'failed', reason: `refreshing the login failed: ${cause instanceof OAuthError ? cause.code : cause instanceof Error ? cause.message : String(cause)}` };
  }
}

function clientOf(configured: ResolvedOAuthClient | undefined, registered: StoredOAuthClientInformation | undefined): StoredOAuthClientInformation | undefined {
  if (configured?.client_id !== undefined) {
    return { client_id: configured.client_id, ...(configured.client_secret === undefined ? {} : { client_secret: configured.client_secret }) };
  }
  return registered;
}
