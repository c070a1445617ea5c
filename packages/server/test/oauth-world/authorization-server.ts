// A real OAuth 2.1 / OpenID Connect authorization server for the tests: oidc-provider (a certified
// implementation) on 127.0.0.1:0, with dynamic client registration, refresh tokens, revocation,
// resource indicators (RFC 8707) that issue JWT access tokens for the resource asked for, PKCE
// required, and an interaction step that logs in a fixed test user and consents on its own (what a
// person would click). Nothing of the OAuth flow itself is stubbed.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type ClientMetadata } from 'oidc-provider';

export const TEST_SCOPE = 'mcp:tools';
export const TEST_ACCOUNT = 'test-user';

export interface AuthorizationServerOptions {
  /** Lifetime of access tokens, seconds. */
  readonly accessTokenTtl?: number;
  /** Clients registered by hand (pre-registered), besides dynamic registration. */
  readonly clients?: readonly ClientMetadata[];
}

export interface AuthorizationServer {
  readonly issuer: string;
  readonly provider: Provider;
  /** Every token endpoint answer by grant type (authorization_code, refresh_token). */
  readonly grants: { authorization_code: number; refresh_token: number };
  /** Clients registered dynamically (RFC 7591) so far. */
  readonly registrations: { count: number };
  /**
   * Holds every request to the token endpoint until `release()`: a test sees which refreshes reach
   * the authorization server while they are still in flight. `arrived` counts the held ones.
   */
  holdTokenRequests(): { readonly arrived: () => number; release(): void };
  close(): Promise<void>;
}

export async function startAuthorizationServer(options: AuthorizationServerOptions = {}): Promise<AuthorizationServer> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' };
  const accessTokenTtl = options.accessTokenTtl ?? 3600;

  const provider = new Provider(issuer, {
    clients: [...(options.clients ?? [])],
    jwks: { keys: [signingKey] },
    scopes: ['openid', 'offline_access', TEST_SCOPE],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true, allowedPolicy: () => true },
      introspection: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: TEST_SCOPE, accessTokenTTL: accessTokenTtl, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    // Refresh tokens whenever the client may use them (not only with offline_access and a consent prompt).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: () => false,
    ttl: { AccessToken: accessTokenTtl, RefreshToken: 86_400, Grant: 86_400, Session: 86_400, Interaction: 600 },
  });
  // The tests run on plain HTTP on loopback; oidc-provider then needs to be told not to expect a proxy.
  provider.proxy = false;
  const grants = { authorization_code: 0, refresh_token: 0 };
  provider.on('grant.success', (ctx) => {
    const type = (ctx.oidc.params as { grant_type?: string } | undefined)?.grant_type;
    if (type === 'authorization_code' || type === 'refresh_token') grants[type] += 1;
  });
  const registrations = { count: 0 };
  provider.on('registration_create.success', () => {
    registrations.count += 1;
  });
  const callback = provider.callback();
  let gate: ((go: () => void) => void) | undefined;
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/interaction/') === true) {
      void consentAutomatically(provider, req, res);
      return;
    }
    if (gate !== undefined && req.method === 'POST' && req.url?.startsWith('/token') === true) {
      gate(() => callback(req, res));
      return;
    }
    callback(req, res);
  });
  return {
    issuer,
    provider,
    grants,
    registrations,
    holdTokenRequests() {
      const waiting: (() => void)[] = [];
      gate = (go) => void waiting.push(go);
      return {
        arrived: () => waiting.length,
        release() {
          gate = undefined;
          for (const go of waiting.splice(0)) go();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/** The login and consent a person would do, done at once: the test user grants what was asked. */
async function consentAutomatically(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: TEST_ACCOUNT } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: TEST_ACCOUNT, clientId: details.params['client_id'] as string });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope !== undefined) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  } catch (error) {
    res.statusCode = 500;
    res.end(`interaction failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
