import { createHash, timingSafeEqual } from 'node:crypto';

/** What an agent token grants: the servers it may see and the profile it is pinned to. */
export interface AgentTokenGrant {
  readonly name: string;
  readonly allowed_servers: readonly string[] | '*';
  readonly profile?: string;
}

/** A token as kept in memory from the config: only the SHA-256 of the secret. */
export interface HashedAgentToken extends AgentTokenGrant {
  readonly sha256: string; // 64 hex
}

/** Tokens created at run time live in the store, found by the hash of their secret. */
export interface StoredTokenSource {
  findAgentTokenBySha256(tokenSha256: string): Promise<
    { readonly name: string; readonly allowed_servers: readonly string[]; readonly profile?: string; readonly revoked: boolean } | undefined
  >;
}

export interface AgentTokenLookup {
  find(secret: string): Promise<AgentTokenGrant | undefined>;
}

/**
 * Config tokens are compared by SHA-256 in constant time, visiting every entry whatever matches, so
 * timing says nothing about which token matched; run-time tokens are looked up in the store by
 * the same hash (the secret itself is never stored or compared).
 */
export function createAgentTokenLookup(configTokens: readonly HashedAgentToken[], store?: StoredTokenSource): AgentTokenLookup {
  const hashed = configTokens.flatMap((token) => {
    const digest = hexDigest(token.sha256);
    return digest === undefined ? [] : [{ token, digest }];
  });
  return {
    async find(secret) {
      const presented = createHash('sha256').update(secret, 'utf8').digest();
      let found: AgentTokenGrant | undefined;
      for (const entry of hashed) {
        if (timingSafeEqual(entry.digest, presented) && found === undefined) found = entry.token;
      }
      if (found !== undefined) return grantOf(found);
      if (store === undefined) return undefined;
      const stored = await store.findAgentTokenBySha256(presented.toString('hex'));
      if (stored === undefined || stored.revoked) return undefined;
      return grantOf({ name: stored.name, allowed_servers: allowedServersOf(stored.allowed_servers), ...(stored.profile === undefined ? {} : { profile: stored.profile }) });
    },
  };
}

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The config's allow-list: ["*"] (a list containing "*") means every server. */
export function allowedServersOf(list: readonly string[]): readonly string[] | '*' {
  return list.includes('*') ? '*' : list;
}

function grantOf(token: AgentTokenGrant): AgentTokenGrant {
  return { name: token.name, allowed_servers: token.allowed_servers, ...(token.profile === undefined ? {} : { profile: token.profile }) };
}

function hexDigest(hex: string): Buffer | undefined {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return undefined;
  return Buffer.from(hex, 'hex');
}
