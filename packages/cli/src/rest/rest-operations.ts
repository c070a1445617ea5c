import type {
  ActivityPage,
  AuthStatusList,
  OAuthCallback,
  OAuthLoginFinished,
  OAuthLoginStarted,
  ApproveRequest,
  LoginRequest,
  RestAgentPreflightResponse,
  RestPreflightRequest,
  RestPreflightResponse,
  ServerInfo,
  ServerList,
  TokenCreate,
  TokenCreated,
  TokenInfo,
  TokenList,
  ToolList,
} from '@mcpproxy/schema';

/**
 * The gateway operations the CLI calls, keyed by their OpenAPI operationId, with the request and
 * success bodies of @mcpproxy/schema's generated types. test/rest-operations.test.ts checks every
 * entry against the generated OpenAPI document (method, path, success status, body schemas).
 */
export interface RestOperations {
  preflight: { body: RestPreflightRequest; result: RestPreflightResponse | RestAgentPreflightResponse };
  listServers: { result: ServerList };
  quarantineServer: { result: ServerInfo };
  unquarantineServer: { result: ServerInfo };
  enableServer: { result: ServerInfo };
  disableServer: { result: ServerInfo };
  restartServer: { result: ServerInfo };
  loginServer: { body: LoginRequest; result: ServerInfo };
  startOAuthLogin: { result: OAuthLoginStarted };
  finishOAuthLogin: { body: OAuthCallback; result: OAuthLoginFinished };
  logoutServer: { result: ServerInfo };
  authStatus: { result: AuthStatusList };
  listTools: { result: ToolList };
  approveTools: { body: ApproveRequest; result: ToolList };
  disableTool: { result: ToolList };
  enableTool: { result: ToolList };
  listActivity: { result: ActivityPage };
  listTokens: { result: TokenList };
  createToken: { body: TokenCreate; result: TokenCreated };
  revokeToken: { result: TokenInfo };
}

export type OperationId = keyof RestOperations;

export interface OperationRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Under the origin, with {param} placeholders. */
  readonly path: string;
  readonly status: number;
  /** The components.schemas entry of the success body (checked against the document by a test). */
  readonly resultSchema: string;
  readonly bodySchema?: string;
}

export const OPERATION_ROUTES: { readonly [K in OperationId]: OperationRoute } = {
  preflight: { method: 'POST', path: '/api/v1/preflight', status: 200, resultSchema: 'RestPreflightResponse', bodySchema: 'RestPreflightRequest' },
  listServers: { method: 'GET', path: '/api/v1/servers', status: 200, resultSchema: 'ServerList' },
  quarantineServer: { method: 'POST', path: '/api/v1/servers/{name}/quarantine', status: 200, resultSchema: 'ServerInfo' },
  unquarantineServer: { method: 'POST', path: '/api/v1/servers/{name}/unquarantine', status: 200, resultSchema: 'ServerInfo' },
  enableServer: { method: 'POST', path: '/api/v1/servers/{name}/enable', status: 200, resultSchema: 'ServerInfo' },
  disableServer: { method: 'POST', path: '/api/v1/servers/{name}/disable', status: 200, resultSchema: 'ServerInfo' },
  restartServer: { method: 'POST', path: '/api/v1/servers/{name}/restart', status: 200, resultSchema: 'ServerInfo' },
  loginServer: { method: 'POST', path: '/api/v1/servers/{name}/login', status: 200, resultSchema: 'ServerInfo', bodySchema: 'LoginRequest' },
  startOAuthLogin: { method: 'POST', path: '/api/v1/servers/{name}/oauth/login', status: 200, resultSchema: 'OAuthLoginStarted' },
  finishOAuthLogin: { method: 'POST', path: '/api/v1/oauth/callback', status: 200, resultSchema: 'OAuthLoginFinished', bodySchema: 'OAuthCallback' },
  logoutServer: { method: 'POST', path: '/api/v1/servers/{name}/logout', status: 200, resultSchema: 'ServerInfo' },
  authStatus: { method: 'GET', path: '/api/v1/auth', status: 200, resultSchema: 'AuthStatusList' },
  listTools: { method: 'GET', path: '/api/v1/tools', status: 200, resultSchema: 'ToolList' },
  approveTools: { method: 'POST', path: '/api/v1/tools/approve', status: 200, resultSchema: 'ToolList', bodySchema: 'ApproveRequest' },
  disableTool: { method: 'POST', path: '/api/v1/tools/{id}/disable', status: 200, resultSchema: 'ToolList' },
  enableTool: { method: 'POST', path: '/api/v1/tools/{id}/enable', status: 200, resultSchema: 'ToolList' },
  listActivity: { method: 'GET', path: '/api/v1/activity', status: 200, resultSchema: 'ActivityPage' },
  listTokens: { method: 'GET', path: '/api/v1/tokens', status: 200, resultSchema: 'TokenList' },
  createToken: { method: 'POST', path: '/api/v1/tokens', status: 201, resultSchema: 'TokenCreated', bodySchema: 'TokenCreate' },
  revokeToken: { method: 'DELETE', path: '/api/v1/tokens/{name}', status: 200, resultSchema: 'TokenInfo' },
};
