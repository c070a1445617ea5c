import type { AgentTokenLookup } from '../http/agent-token-lookup.js';
import { OPERATOR, type RestPrincipal } from './rest-principal.js';
import type { SecretDigest } from './secret-digest.js';

export interface RestCredentials {
  /** The admin API key (operator tier). */
  readonly adminKey: SecretDigest;
  /** Agent tokens from the config and the store (agent tier). */
  readonly tokens: AgentTokenLookup;
}

export type RestAuthentication =
  | { readonly ok: true; readonly principal: RestPrincipal }
  | { readonly ok: false; readonly message: string; /** The header at fault. */ readonly path: string };

/**
 * X-API-Key must be the admin key; `Authorization: Bearer` may carry the admin key or an agent
 * token. A credential that is given but wrong never falls back to another one, and a request
 * with none is refused (only /healthz is open).
 */
export async function authenticateRestRequest(
  headers: { readonly apiKey: string | undefined; readonly authorization: string | undefined },
  credentials: RestCredentials,
): Promise<RestAuthentication> {
  if (headers.apiKey !== undefined && headers.apiKey !== '') {
    if (credentials.adminKey.matches(headers.apiKey)) return { ok: true, principal: OPERATOR };
    return { ok: false, message: 'The X-API-Key is not the admin API key', path: 'X-API-Key' };
  }
  if (headers.authorization === undefined || headers.authorization.trim() === '') {
    return { ok: false, message: 'Credentials required: X-API-Key: <admin key> or Authorization: Bearer <admin key or agent token>', path: 'Authorization' };
  }
  const secret = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization)?.[1];
  if (secret === undefined) return { ok: false, message: 'Malformed Authorization header: expected "Bearer <token>"', path: 'Authorization' };
  if (credentials.adminKey.matches(secret)) return { ok: true, principal: OPERATOR };
  const grant = await credentials.tokens.find(secret);
  if (grant === undefined) return { ok: false, message: 'Unknown or revoked token', path: 'Authorization' };
  return {
    ok: true,
    principal: {
      tier: 'agent',
      tokenName: grant.name,
      scope: { allowed_servers: grant.allowed_servers, ...(grant.profile === undefined ? {} : { profile_pin: grant.profile }) },
    },
  };
}
