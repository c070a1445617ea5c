import type { Scope } from '@mcpproxy/evaluator';
import type { GatewayRuntime, PublishedState } from '../state/gateway-runtime.js';
import type { UpstreamNotification } from '../upstream/upstream-notification.js';
import { catalogRefusal, servingServers } from './catalog-servers.js';
import type { ResourceSubscriptions } from './resource-subscriptions.js';
import type { NotifiableSession } from './tools-changed-notifier.js';

/** A session that can be told of catalog changes; `id` keys its logging level (undefined over stdio). */
export interface CatalogSession extends NotifiableSession {
  readonly id?: string;
}

export interface CatalogTargets {
  /** Open 2025-era sessions (HTTP or stdio): each hears about the servers in its own scope. */
  sessions(): Iterable<CatalogSession>;
  /** 2026-07-28 listen streams (not scoped per stream, as for tools): told of any change. */
  readonly modern?: {
    resourcesChanged(): void;
    promptsChanged(): void;
    hasListeners(): boolean;
  };
}

const EVERY_SERVER: Scope = { allowed_servers: '*' };

/**
 * Tells downstream clients what changed in the upstreams' resources and prompts: notifications/
 * resources/list_changed and prompts/list_changed when an upstream says its list changed or when a
 * server starts or stops contributing to a session's view (connected, quarantined, enabled); resource
 * updates to their subscribers; and an upstream's log messages to the 2025-11-25 sessions that see
 * that server, at each session's own logging/setLevel (the logger names the server). Returns the
 * unsubscribe function.
 */
export function relayCatalogChanges(
  runtime: Pick<GatewayRuntime, 'current' | 'subscribe' | 'onUpstreamNotification'>,
  targets: CatalogTargets,
  subscriptions: ResourceSubscriptions,
  onError?: (error: Error) => void,
): () => void {
  const report = (error: unknown) => onError?.(error instanceof Error ? error : new Error(String(error)));
  const listChanged = (session: CatalogSession, which: 'resources' | 'prompts') =>
    void (which === 'resources' ? session.server.sendResourceListChanged() : session.server.sendPromptListChanged()).catch(report);

  let previous = runtime.current();
  const stopState = runtime.subscribe((next) => {
    const before = previous;
    previous = next;
    const changedFor = new Map<string, boolean>();
    for (const session of targets.sessions()) {
      let changed = changedFor.get(session.identity.key);
      if (changed === undefined) {
        changed = servingKey(before, session.identity.scope) !== servingKey(next, session.identity.scope);
        changedFor.set(session.identity.key, changed);
      }
      if (!changed) continue;
      listChanged(session, 'resources');
      listChanged(session, 'prompts');
    }
    const modern = targets.modern;
    if (modern !== undefined && modern.hasListeners() && servingKey(before, EVERY_SERVER) !== servingKey(next, EVERY_SERVER)) {
      modern.resourcesChanged();
      modern.promptsChanged();
    }
  });

  const stopNotifications = runtime.onUpstreamNotification((server, notification: UpstreamNotification) => {
    const state = runtime.current();
    const seeing = () => [...targets.sessions()].filter((session) => catalogRefusal(state, session.identity.scope, server) === undefined);
    switch (notification.kind) {
      case 'resources_list_changed':
      case 'prompts_list_changed': {
        const which = notification.kind === 'resources_list_changed' ? 'resources' : 'prompts';
        for (const session of seeing()) listChanged(session, which);
        if (which === 'resources') targets.modern?.resourcesChanged();
        else targets.modern?.promptsChanged();
        return;
      }
      case 'resource_updated':
        subscriptions.updated(server, notification.uri);
        return;
      case 'log': {
        const { logger, ...rest } = notification.params;
        const params = { ...rest, logger: logger === undefined ? server : `${server}:${logger}` };
        for (const session of seeing()) void session.server.sendLoggingMessage(params, session.id).catch(report);
        return;
      }
    }
  });
  return () => {
    stopState();
    stopNotifications();
  };
}

/** The servers whose resources and prompts a scope sees in this state, as one comparable string. */
function servingKey(state: PublishedState, scope: Scope): string {
  return servingServers(state, scope).join('\n');
}
