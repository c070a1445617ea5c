import type { Scope } from '@mcpproxy/evaluator';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** Who is asking on /mcp: the scope listing and dispatch are filtered by, fixed per request (modern) or per session (legacy). */
export interface McpIdentity {
  readonly scope: Scope;
  /** Stable for one credential on one path; a legacy session only answers the identity that opened it. */
  readonly key: string;
  /** The agent token's name, when the request carried one. */
  readonly tokenName?: string;
}

export type ProtocolEra = 'legacy' | 'modern';

/** What a server instance is built for: one modern request, one legacy session, or one stdio connection. */
export interface McpSessionContext {
  readonly identity: McpIdentity;
  readonly era: ProtocolEra;
}

const IDENTITY_KEY = 'mcpproxy.identity';

// The SDK hands `authInfo` through to the server factory untouched; the identity rides in `extra`.
export function identityAuthInfo(identity: McpIdentity): AuthInfo {
  return { token: identity.key, clientId: identity.tokenName ?? 'anonymous', scopes: [], extra: { [IDENTITY_KEY]: identity } };
}

export function identityFromAuthInfo(authInfo: AuthInfo | undefined): McpIdentity | undefined {
  const value = authInfo?.extra?.[IDENTITY_KEY];
  return isIdentity(value) ? value : undefined;
}

function isIdentity(value: unknown): value is McpIdentity {
  return typeof value === 'object' && value !== null && 'scope' in value && 'key' in value;
}
