import type {
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { ResolvedOAuthClient } from '../config/oauth-client-secrets.js';
import type { WaitClock } from '../preflight/wait-clock.js';
import type { UpstreamOAuthRecord } from '../store/store.js';
import type { OAuthRecordCell } from './oauth-record-cell.js';
import { storedDiscovery, withDiscovery, withResource, withTokens, withWantedScope } from './stored-oauth-parts.js';

/** What one step of a login hands the SDK besides the stored record. */
export interface LoginStep {
  /** Starting: the state this login's authorization URL carries. */
  readonly state?: string;
  /** Finishing: the PKCE verifier kept since the start. */
  readonly codeVerifier?: string;
}

export interface UpstreamOAuthProviderOptions {
  readonly cell: OAuthRecordCell;
  readonly redirectUri: string;
  /** A pre-registered client from the configuration; without one the SDK registers one (RFC 7591). */
  readonly client?: ResolvedOAuthClient;
  readonly clientName: string;
  readonly clock: WaitClock;
  readonly step: LoginStep;
}

/**
 * The SDK's OAuthClientProvider for one step of one upstream's login, over the gateway's store:
 * the client registration, the tokens, the discovery results and the resource indicator persist
 * there; the authorization URL and the PKCE verifier of a starting login are captured here, for the
 * login flow to keep with the state (the gateway, not a browser, holds them).
 */
export class UpstreamOAuthProvider implements OAuthClientProvider {
  private capturedUrl: URL | undefined;
  private capturedVerifier: string | undefined;

  constructor(private readonly options: UpstreamOAuthProviderOptions) {}

  get redirectUrl(): string {
    return this.options.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { client } = this.options;
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.options.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: client?.client_secret === undefined ? 'none' : 'client_secret_basic',
      // A loopback redirect: a native application (RFC 8252), whatever host the gateway runs on.
      application_type: 'native',
      ...(client?.scopes === undefined || client.scopes.length === 0 ? {} : { scope: client.scopes.join(' ') }),
    };
  }

  state(): string {
    if (this.options.step.state === undefined) throw new Error('no login is being started, so there is no state to send');
    return this.options.step.state;
  }

  async clientInformation(context?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const configured = this.options.client;
    if (configured?.client_id !== undefined) {
      // Issued for the authorization server the configuration means: stamped with the one in use.
      return {
        client_id: configured.client_id,
        ...(configured.client_secret === undefined ? {} : { client_secret: configured.client_secret }),
        ...(context === undefined ? {} : { issuer: context.issuer }),
      };
    }
    return (await this.options.cell.read()).client as StoredOAuthClientInformation | undefined;
  }

  async saveClientInformation(information: StoredOAuthClientInformation): Promise<void> {
    if (this.options.client?.client_id !== undefined) return;
    await this.options.cell.update((record) => ({ ...record, client: { ...information } }));
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.options.cell.read()).tokens as StoredOAuthTokens | undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const now = this.options.clock.now();
    await this.options.cell.update((record) => withTokens(record, tokens, now));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.capturedUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.capturedVerifier = codeVerifier;
  }

  codeVerifier(): string {
    const verifier = this.options.step.codeVerifier ?? this.capturedVerifier;
    if (verifier === undefined) throw new Error('this login has no PKCE verifier: start it again');
    return verifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.options.cell.update((record) => withDiscovery(record, state));
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return storedDiscovery(await this.options.cell.read())?.state;
  }

  async saveResourceUrl(resourceUrl: string): Promise<void> {
    await this.options.cell.update((record) => withResource(record, resourceUrl));
  }

  async resourceUrl(): Promise<string | undefined> {
    return storedDiscovery(await this.options.cell.read())?.resource;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') {
      this.capturedVerifier = undefined;
      return;
    }
    await this.options.cell.update((record) => {
      const next: { -readonly [K in keyof UpstreamOAuthRecord]: UpstreamOAuthRecord[K] } = { ...record };
      if (scope === 'all' || scope === 'client') delete next.client;
      if (scope === 'all' || scope === 'tokens') {
        delete next.tokens;
        delete next.tokens_expire_at;
      }
      // What discovery found goes; the scope the upstream asked for stays for the next login.
      if (scope === 'all' || scope === 'discovery') {
        const { discovery: _found, ...rest } = next;
        return withWantedScope(rest, storedDiscovery(record)?.wanted_scope);
      }
      return next;
    });
  }

  /** Where the SDK sent the browser, once a starting login got that far. */
  authorizationUrl(): URL | undefined {
    return this.capturedUrl;
  }

  /** The PKCE verifier of a starting login, for the gateway to keep with its state. */
  startedVerifier(): string | undefined {
    return this.capturedVerifier;
  }
}
