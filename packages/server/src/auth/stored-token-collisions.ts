import { sha256Hex } from '../http/agent-token-lookup.js';
import type { StoredAgentToken } from '../store/store.js';

export interface ConfiguredSecrets {
  readonly adminKey: string;
  /** The config's agent tokens by name, as SHA-256 hex. */
  readonly tokens: readonly { readonly name: string; readonly sha256: string }[];
}

/**
 * Run-time tokens (in the store) whose secret the configuration also uses. Config tokens are
 * matched first and the admin key before any token, so such a secret silently takes the config's
 * scope or the operator tier, and a revoked one comes back to life. One line per collision.
 */
export function storedTokenCollisions(configured: ConfiguredSecrets, stored: readonly StoredAgentToken[]): string[] {
  const storedBySha = new Map(stored.map((token) => [token.token_sha256, token]));
  const describe = (token: StoredAgentToken) => `the run-time token "${token.name}"${token.revoked ? ' (revoked)' : ''}`;
  const lines: string[] = [];
  const admin = storedBySha.get(sha256Hex(configured.adminKey));
  if (admin !== undefined) lines.push(`the admin API key is the secret of ${describe(admin)}: choose another api_key`);
  configured.tokens.forEach((token, i) => {
    const clash = storedBySha.get(token.sha256);
    if (clash !== undefined) lines.push(`agent_tokens[${i}] ("${token.name}") has the secret of ${describe(clash)}: give it its own secret`);
  });
  return lines;
}
