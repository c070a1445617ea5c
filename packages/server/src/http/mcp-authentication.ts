import { createHash } from 'node:crypto';
import type { McpIdentity } from '../mcp/mcp-identity.js';
import type { AgentTokenLookup } from './agent-token-lookup.js';

export interface McpAuthenticationPolicy {
  readonly tokens: AgentTokenLookup;
  readonly requireAuth: boolean;
  readonly profileExists: (name: string) => boolean;
}

export type McpAuthentication =
  | { readonly ok: true; readonly identity: McpIdentity }
  | { readonly ok: false; readonly status: 401 | 404; readonly message: string };

/**
 * The identity of one /mcp request: its bearer agent token (optional unless require_mcp_auth) and
 * the profile its path selects. Without a token the scope is every configured server. Credentials
 * are checked before the profile, so a caller without one cannot tell which profiles exist.
 */
export async function authenticateMcpRequest(
  authorization: string | undefined,
  profile: string | undefined,
  policy: McpAuthenticationPolicy,
): Promise<McpAuthentication> {
  let grant: Awaited<ReturnType<AgentTokenLookup['find']>> | undefined;
  let secret: string | undefined;
  if (authorization === undefined || authorization.trim() === '') {
    if (policy.requireAuth) return { ok: false, status: 401, message: 'An agent token is required (Authorization: Bearer <token>)' };
  } else {
    secret = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (secret === undefined) return { ok: false, status: 401, message: 'Malformed Authorization header: expected "Bearer <token>"' };
    grant = await policy.tokens.find(secret);
    if (grant === undefined) return { ok: false, status: 401, message: 'Unknown agent token' };
  }
  if (profile !== undefined && !policy.profileExists(profile)) {
    return { ok: false, status: 404, message: `Unknown profile: ${profile}` };
  }
  const profileKey = profile === undefined ? '' : `|p:${profile}`;
  if (grant === undefined || secret === undefined) {
    return { ok: true, identity: { key: `anonymous${profileKey}`, scope: { allowed_servers: '*', ...activeProfile(profile) } } };
  }
  return {
    ok: true,
    identity: {
      // The key names the secret by its hash: it outlives the request in session bookkeeping.
      key: `token:${createHash('sha256').update(secret).digest('hex')}${profileKey}`,
      tokenName: grant.name,
      scope: {
        allowed_servers: grant.allowed_servers,
        ...(grant.profile === undefined ? {} : { profile_pin: grant.profile }),
        ...activeProfile(profile),
      },
    },
  };
}

function activeProfile(profile: string | undefined): { active_profile?: string } {
  return profile === undefined ? {} : { active_profile: profile };
}
