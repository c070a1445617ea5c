import type { Scope } from '@mcpproxy/evaluator';
import type { Server } from '@modelcontextprotocol/server';
import type { GatewayRuntime, PublishedState } from '../state/gateway-runtime.js';
import type { McpIdentity } from './mcp-identity.js';
import { sameListing, type ServedListing } from './served-listing.js';

export interface NotifiableSession {
  readonly identity: McpIdentity;
  readonly server: Server;
}

export interface ToolsChangedTargets {
  /** Open 2025-era sessions (HTTP or stdio); each hears about changes to its own scope's listing only. */
  sessions(): Iterable<NotifiableSession>;
  /** 2026-07-28 listen streams are not scoped per session: they hear about a change of the full listing. */
  notifyModern?(): void;
  /** Whether notifyModern has anyone to tell (the full listing is only compared when it does). */
  hasModernListeners?(): boolean;
}

const EVERY_SERVER: Scope = { allowed_servers: '*' };

/**
 * Sends notifications/tools/list_changed when a published state changes what a session's tools/list
 * would return (names or definitions), and nothing when it does not, so connection flaps of a server
 * whose last-known tools stay listed cause no list churn. Returns the unsubscribe function.
 */
export function notifyToolListChanges(
  runtime: Pick<GatewayRuntime, 'current' | 'subscribe'>,
  listingFor: (state: PublishedState, scope: Scope) => ServedListing,
  targets: ToolsChangedTargets,
  onError?: (error: Error) => void,
): () => void {
  let previous = runtime.current();
  return runtime.subscribe((next) => {
    const before = previous;
    previous = next;
    const changedFor = new Map<string, boolean>();
    for (const session of targets.sessions()) {
      let changed = changedFor.get(session.identity.key);
      if (changed === undefined) {
        const scope = session.identity.scope;
        changed = !sameListing(listingFor(before, scope), listingFor(next, scope));
        changedFor.set(session.identity.key, changed);
      }
      if (changed) {
        session.server.sendToolListChanged().catch((error: unknown) => onError?.(error instanceof Error ? error : new Error(String(error))));
      }
    }
    const modernListening = targets.notifyModern !== undefined && (targets.hasModernListeners?.() ?? true);
    if (modernListening && !sameListing(listingFor(before, EVERY_SERVER), listingFor(next, EVERY_SERVER))) {
      targets.notifyModern?.();
    }
  });
}
