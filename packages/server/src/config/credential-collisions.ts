import type { AgentTokenConfig } from '@mcpproxy/schema';
import { sha256Hex } from '../http/agent-token-lookup.js';
import type { ConfigIssue } from './config-cross-checks.js';

// Secrets that silently widen a scope: two agent tokens with one secret (the first in file order
// wins, so one of them gets the other's servers), and an agent token that is the admin key (it
// answers at the operator tier on REST). Tokens are compared by SHA-256, whichever way they are given.

/** Agent tokens that share a secret with an earlier one. */
export function duplicateTokenSecrets(tokens: readonly AgentTokenConfig[]): ConfigIssue[] {
  const firstBySha = new Map<string, string>();
  return hashedTokens(tokens).flatMap(({ sha, at, path }) => {
    const first = firstBySha.get(sha);
    if (first === undefined) {
      firstBySha.set(sha, at);
      return [];
    }
    return [{ path, message: `${at} duplicates ${first}: one secret would carry only the first token's scope; give each token its own secret` }];
  });
}

/** Agent tokens whose secret is the admin key; `from` says where the key came from. */
export function tokensEqualToAdminKey(tokens: readonly AgentTokenConfig[], adminKey: string, from: string): ConfigIssue[] {
  const adminSha = sha256Hex(adminKey);
  return hashedTokens(tokens)
    .filter(({ sha }) => sha === adminSha)
    .map(({ at, path }) => ({ path, message: `${at} is the admin API key (${from}): the token would have the operator tier on REST; give it its own secret` }));
}

function hashedTokens(tokens: readonly AgentTokenConfig[]): { sha: string; at: string; path: string }[] {
  return tokens.flatMap((token, i) => {
    const field = token.token_sha256 === undefined ? 'token' : 'token_sha256';
    const sha = token.token_sha256 ?? (token.token === undefined ? undefined : sha256Hex(token.token));
    return sha === undefined ? [] : [{ sha, at: `agent_tokens[${i}].${field}`, path: `/agent_tokens/${i}/${field}` }];
  });
}
