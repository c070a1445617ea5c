import type { Scope } from '@mcpproxy/evaluator';
import { allowedServersOf } from '../http/agent-token-lookup.js';
import type { Store } from '../store/store.js';

/** An agent token as the configuration lists it (never its secret or hash). */
export interface NamedConfigToken {
  readonly name: string;
  readonly allowed_servers: readonly string[];
  readonly profile?: string;
}

export type TokenScopeByName =
  | { readonly ok: true; readonly scope: Scope }
  | { readonly ok: false; readonly code: 'unknown_token' | 'revoked_token' };

/**
 * The scope an agent token carries, found by its name: the configuration's tokens first (they win
 * at authentication too), then the store's. Secrets are kept only as hashes, so an operator who
 * wants to see what a token sees names it. A revoked token is reported as such: it sees nothing.
 */
export async function tokenScopeByName(
  name: string,
  configTokens: readonly NamedConfigToken[],
  store: Pick<Store, 'listAgentTokens'>,
): Promise<TokenScopeByName> {
  const token = configTokens.find((candidate) => candidate.name === name) ?? (await store.listAgentTokens()).find((candidate) => candidate.name === name);
  if (token === undefined) return { ok: false, code: 'unknown_token' };
  if ('revoked' in token && token.revoked === true) return { ok: false, code: 'revoked_token' };
  return { ok: true, scope: { allowed_servers: allowedServersOf(token.allowed_servers), ...(token.profile === undefined ? {} : { profile_pin: token.profile }) } };
}
