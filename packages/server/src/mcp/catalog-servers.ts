import { resolveScope, type Scope } from '@mcpproxy/evaluator';
import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type { PublishedState } from '../state/gateway-runtime.js';
import { compareCodeUnits } from './served-listing.js';

/** Which part of an upstream's catalog a request is about (the capability it must have declared). */
export type CatalogFeature = 'resources' | 'prompts' | 'completions';

/** Why a server's resources and prompts are not served to this caller. */
export type CatalogRefusal = 'unknown' | 'quarantined' | 'disabled' | 'not_connected';

/**
 * The gates tools have, where they apply to resources and prompts: a server out of the caller's scope
 * or not configured is unknown (the agent tier learns nothing about it), a quarantined or disabled one
 * contributes nothing, and one whose connection is not ready has nothing to answer with now. Approval
 * and rug-pull hashes are about tool definitions and do not apply.
 */
export function catalogRefusal(state: PublishedState, scope: Scope, server: string): CatalogRefusal | undefined {
  const snapshot = state.snapshot.servers.get(server);
  if (snapshot === undefined || !resolveScope(state.snapshot, scope).has(server)) return 'unknown';
  if (snapshot.quarantined) return 'quarantined';
  if (!snapshot.enabled) return 'disabled';
  if (snapshot.connection.state !== 'ready') return 'not_connected';
  return undefined;
}

/** The servers whose catalog this caller sees now (no gate refuses them), in served order (by name). */
export function servingServers(state: PublishedState, scope: Scope): string[] {
  return [...resolveScope(state.snapshot, scope)]
    .filter((server) => {
      const snapshot = state.snapshot.servers.get(server);
      return snapshot !== undefined && !snapshot.quarantined && snapshot.enabled && snapshot.connection.state === 'ready';
    })
    .sort(compareCodeUnits);
}

/** The servers whose `feature` this caller sees now, in served order. */
export function catalogServers(
  state: PublishedState,
  scope: Scope,
  feature: CatalogFeature,
  capabilities: (server: string) => ServerCapabilities | undefined,
): string[] {
  return servingServers(state, scope).filter((server) => capabilities(server)?.[feature] !== undefined);
}

/** The sentence a refused request gets (the same for every unknown name, so nothing leaks). */
export function refusalSentence(refusal: CatalogRefusal, server: string): string {
  switch (refusal) {
    case 'unknown':
      return 'no such server is served to this caller';
    case 'quarantined':
      return `server ${server} is quarantined until an operator reviews it`;
    case 'disabled':
      return `server ${server} is disabled`;
    case 'not_connected':
      return `server ${server} is not connected right now`;
  }
}
