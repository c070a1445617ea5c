import type {
  ActivityPage,
  ApiError,
  AuthStatus,
  AuthStatusList,
  OAuthLoginStarted,
  RestPreflightRequest,
  RestPreflightResponse,
  ServerInfo,
  ServerList,
  TokenCreated,
  TokenInfo,
  TokenList,
  ToolInfo,
  ToolList,
  ToolReview,
} from '@mcpproxy/schema';

/** A REST answer that was not 2xx: its status and ApiError body (or what stood in for one). */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type ServerAction = 'enable' | 'disable' | 'quarantine' | 'unquarantine' | 'restart';

export interface ActivityFilter {
  readonly type?: string;
  readonly server?: string;
  readonly verdict?: string;
  readonly request_id?: string;
  readonly cursor?: string;
}

/**
 * The REST API of the gateway that served this page (same origin), with the admin key in the
 * X-API-Key header of every request: never in a URL, never in a cookie.
 */
export class GatewayClient {
  constructor(readonly key: string) {}

  async request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const response = await fetch(`/api/v1${path}`, {
      method,
      headers: { 'x-api-key': this.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal }),
      cache: 'no-store',
      credentials: 'omit',
    });
    const text = await response.text();
    const parsed: unknown = text === '' ? undefined : JSON.parse(text);
    if (!response.ok) {
      const error = parsed as Partial<ApiError> | undefined;
      throw new GatewayError(response.status, error?.code ?? 'http_error', error?.message ?? `HTTP ${response.status}`);
    }
    return parsed as T;
  }

  servers(): Promise<ServerInfo[]> {
    return this.request<ServerList>('GET', '/servers').then((list) => [...list.servers]);
  }

  serverAction(name: string, action: ServerAction): Promise<ServerInfo> {
    return this.request('POST', `/servers/${encodeURIComponent(name)}/${action}`);
  }

  /** Each server's login (never a token): needed, logged in (expiry, scopes) or not needed. */
  authStatus(): Promise<AuthStatus[]> {
    return this.request<AuthStatusList>('GET', '/auth').then((list) => [...list.servers]);
  }

  /** Starts an OAuth login whose redirect the gateway receives itself: this page has no command listening for it. */
  startOAuthLogin(name: string): Promise<OAuthLoginStarted> {
    return this.request('POST', `/servers/${encodeURIComponent(name)}/oauth/login?callback=gateway`);
  }

  tools(): Promise<ToolInfo[]> {
    return this.request<ToolList>('GET', '/tools').then((list) => [...list.tools]);
  }

  review(id: string): Promise<ToolReview> {
    return this.request('GET', `/tools/${encodeURIComponent(id)}/review`);
  }

  approve(ids: readonly string[]): Promise<ToolList> {
    return this.request('POST', '/tools/approve', { ids });
  }

  setToolDisabled(id: string, disabled: boolean): Promise<ToolList> {
    return this.request('POST', `/tools/${encodeURIComponent(id)}/${disabled ? 'disable' : 'enable'}`);
  }

  preflight(body: RestPreflightRequest, asToken?: string): Promise<RestPreflightResponse> {
    const query = asToken === undefined ? '' : `?as_token=${encodeURIComponent(asToken)}`;
    return this.request('POST', `/preflight${query}`, body);
  }

  activity(filter: ActivityFilter): Promise<ActivityPage> {
    const query = new URLSearchParams({ limit: '50' });
    for (const [name, value] of Object.entries(filter)) if (typeof value === 'string' && value !== '') query.set(name, value);
    return this.request('GET', `/activity?${query.toString()}`);
  }

  tokens(): Promise<TokenInfo[]> {
    return this.request<TokenList>('GET', '/tokens').then((list) => [...list.tokens]);
  }

  createToken(name: string, allowedServers: readonly string[], profile?: string): Promise<TokenCreated> {
    return this.request('POST', '/tokens', { name, allowed_servers: allowedServers, ...(profile === undefined ? {} : { profile }) });
  }

  revokeToken(name: string): Promise<TokenInfo> {
    return this.request('DELETE', `/tokens/${encodeURIComponent(name)}`);
  }
}
