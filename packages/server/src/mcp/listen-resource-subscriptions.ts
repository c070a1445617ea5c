import type { ListenWatch } from './listen-stream-registry.js';
import { resourceTarget, type CatalogRuntime } from './catalog-surface.js';
import type { ResourceSubscriber, ResourceSubscriptions } from './resource-subscriptions.js';

/**
 * 2026-07-28 resource subscriptions: a `subscriptions/listen` request names the (gateway) URIs it
 * wants updates for in `notifications.resourceSubscriptions`. For as long as its stream is open the
 * gateway keeps the upstreams subscribed to those the caller may read; the others are taken out of
 * the filter before the stream opens, since the listen streams share one bus and would otherwise
 * hear of a resource of a server out of their scope that someone else subscribed to.
 */
export function watchListenSubscriptions(subscriptions: ResourceSubscriptions, runtime: CatalogRuntime, deliver: (uri: string) => void): ListenWatch {
  return async (request, identity) => {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return { release: () => undefined };
    }
    const filter = member(member(body, 'params'), 'notifications');
    const requested = member(filter, 'resourceSubscriptions');
    if (!Array.isArray(requested)) return { release: () => undefined };
    const subscriber: ResourceSubscriber = { deliver };
    const kept: string[] = [];
    for (const uri of requested) {
      if (typeof uri !== 'string') continue;
      let target: { server: string; uri: string };
      try {
        target = resourceTarget(uri, 'resources', identity.scope, runtime);
      } catch {
        continue;
      }
      if (runtime.upstreamCapabilities(target.server)?.resources?.subscribe !== true) continue;
      subscriptions.add(subscriber, target.server, target.uri);
      kept.push(uri);
    }
    const narrowed = { ...(body as object), params: { ...(member(body, 'params') as object), notifications: { ...(filter as object), resourceSubscriptions: kept } } };
    return { body: JSON.stringify(narrowed), release: () => subscriptions.removeAll(subscriber) };
  };
}

function member(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
