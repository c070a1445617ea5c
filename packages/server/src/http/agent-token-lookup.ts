import { createHash, timingSafeEqual } from 'node:crypto';

/** What an agent token grants: the servers it may see and the profile it is pinned to. */
export interface AgentTokenGrant {
  readonly name: string;
  readonly allowed_servers: readonly string[] | '*';
  readonly profile?: string;
}

/** A token as stored: only the SHA-256 of the secret is ever kept. */
export interface HashedAgentToken extends AgentTokenGrant {
  readonly sha256: string; // 64 lowercase hex
}

export interface AgentTokenLookup {
  find(secret: string): AgentTokenGrant | undefined;
}

/**
 * Matches a presented secret against every known token hash in constant time per entry, and visits
 * every entry whatever matches, so timing says nothing about which token (or how much of one) matched.
 * `sources` are read on every lookup, so tokens created at run time count at once.
 */
export function createAgentTokenLookup(sources: readonly (() => Iterable<HashedAgentToken>)[]): AgentTokenLookup {
  return {
    find(secret) {
      const presented = createHash('sha256').update(secret, 'utf8').digest();
      let found: AgentTokenGrant | undefined;
      for (const source of sources) {
        for (const token of source()) {
          const stored = hexDigest(token.sha256);
          if (stored !== undefined && timingSafeEqual(stored, presented) && found === undefined) found = token;
        }
      }
      return found;
    },
  };
}

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Normalises the config's allow-list: ["*"] (or any list containing "*") means every server. */
export function allowedServersOf(list: readonly string[]): readonly string[] | '*' {
  return list.includes('*') ? '*' : list;
}

function hexDigest(hex: string): Buffer | undefined {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return undefined;
  return Buffer.from(hex, 'hex');
}
