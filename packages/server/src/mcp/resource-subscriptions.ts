/** Someone downstream to tell that a resource changed: a 2025-11-25 session, or a 2026-07-28 listen stream. */
export interface ResourceSubscriber {
  /** Sends notifications/resources/updated for the gateway's (namespaced) URI. */
  readonly deliver: (namespacedUri: string) => void;
}

/**
 * Who downstream is subscribed to which upstream resource. An upstream connection is shared, so the
 * gateway subscribes upstream once per resource, when its first subscriber comes, and unsubscribes
 * when the last one goes (or its session ends); an update goes to every subscriber of that resource.
 * Subscribers that deliver through the same function (every 2026-07-28 listen stream shares one bus,
 * which filters per stream itself) are told once.
 */
export class ResourceSubscriptions {
  readonly #subscribers = new Map<string, Set<ResourceSubscriber>>();
  readonly #held = new Map<ResourceSubscriber, Set<string>>();

  /**
   * @param upstream subscribes (`on`) or unsubscribes a server's upstream to one of its own URIs.
   * @param namespaced the gateway's URI for a server's own URI.
   */
  constructor(
    private readonly upstream: (server: string, uri: string, on: boolean) => void,
    private readonly namespaced: (server: string, uri: string) => string,
  ) {}

  add(subscriber: ResourceSubscriber, server: string, uri: string): void {
    const key = keyOf(server, uri);
    let subscribers = this.#subscribers.get(key);
    if (subscribers === undefined) {
      this.#subscribers.set(key, (subscribers = new Set()));
      this.upstream(server, uri, true);
    }
    subscribers.add(subscriber);
    let held = this.#held.get(subscriber);
    if (held === undefined) this.#held.set(subscriber, (held = new Set()));
    held.add(key);
  }

  remove(subscriber: ResourceSubscriber, server: string, uri: string): void {
    this.#drop(subscriber, keyOf(server, uri));
    const held = this.#held.get(subscriber);
    held?.delete(keyOf(server, uri));
    if (held?.size === 0) this.#held.delete(subscriber);
  }

  /** Everything a subscriber held (its session or stream ended). */
  removeAll(subscriber: ResourceSubscriber): void {
    for (const key of this.#held.get(subscriber) ?? []) this.#drop(subscriber, key);
    this.#held.delete(subscriber);
  }

  /** The upstream said its resource changed: tell each subscriber (each delivery channel once). */
  updated(server: string, uri: string): void {
    const subscribers = this.#subscribers.get(keyOf(server, uri));
    if (subscribers === undefined) return;
    const namespaced = this.namespaced(server, uri);
    for (const deliver of new Set([...subscribers].map((subscriber) => subscriber.deliver))) deliver(namespaced);
  }

  /** Upstream subscriptions held now (tests: nothing outlives its subscribers). */
  get size(): number {
    return this.#subscribers.size;
  }

  #drop(subscriber: ResourceSubscriber, key: string): void {
    const subscribers = this.#subscribers.get(key);
    if (subscribers === undefined || !subscribers.delete(subscriber) || subscribers.size > 0) return;
    this.#subscribers.delete(key);
    const [server, uri] = splitKey(key);
    this.upstream(server, uri, false);
  }
}

// Server names cannot hold a newline; upstream URIs are kept whole after it.
function keyOf(server: string, uri: string): string {
  return `${server}\n${uri}`;
}

function splitKey(key: string): [string, string] {
  const newline = key.indexOf('\n');
  return [key.slice(0, newline), key.slice(newline + 1)];
}
