import { KeyedMutex } from './keyed-mutex.js';

/**
 * A change committed to a shared store, by this gateway or another one on the same database:
 * - `state`: approvals, server overrides (quarantine, enable) or known servers of `server`;
 * - `tokens`: a run-time agent token was created, or `revoked` (its name);
 * - `credentials`: the upstream credential of `server` was stored or deleted;
 * - `resync`: the change feed was down and is back; anything may have changed meanwhile.
 */
export type StoreChange =
  | { readonly topic: 'state'; readonly server?: string }
  | { readonly topic: 'tokens'; readonly revoked?: string }
  | { readonly topic: 'credentials'; readonly server: string }
  | { readonly topic: 'resync' };

/** What a listener of the change feed returns: a promise when it re-reads state. */
export type StoreChangeListener = (change: StoreChange) => void | Promise<void>;

/**
 * How the gateways that share one store stay in step. The SQLite store is one gateway's alone (the
 * data-dir lock sees to that): nothing changes under it, it is always reachable, and exclusive
 * sections only need to exclude this process. A PostgreSQL store is shared by replicas: its change
 * feed is LISTEN/NOTIFY, and exclusive sections are advisory locks.
 */
export interface StoreCoordination {
  /** True when other gateways may write the same store (PostgreSQL). */
  readonly shared: boolean;
  /**
   * Calls `listener` after each change committed to the store, by any gateway (this one included),
   * in commit order. After the feed was down it sends `resync`, and the store counts as reachable
   * again only once every listener's promise for it has settled: a re-read of the state is part of
   * coming back. Returns the unsubscribe function.
   */
  watch(listener: StoreChangeListener): () => void;
  /**
   * False while the store cannot be reached or its change feed is down: this gateway may have
   * missed another's change, so it must not answer from its state (preflight 503, tool calls refused).
   */
  reachable(): boolean;
  /**
   * Runs `section` while no other section of the same key runs, in this gateway or any other on
   * the same store (a read-modify-write of shared state, a refresh of a rotating credential).
   * Sections of one key run in the order they were asked for within a gateway.
   */
  withExclusive<T>(key: string, section: () => Promise<T>): Promise<T>;
  /** Settles once the store has finished closing after `Store.close()` (accepted records written). */
  closed(): Promise<void>;
}

/** The coordination of a store that one gateway owns alone (SQLite). */
export function soloCoordination(): StoreCoordination {
  const mutex = new KeyedMutex();
  return {
    shared: false,
    watch: () => () => {},
    reachable: () => true,
    withExclusive: (key, section) => mutex.run(key, section),
    closed: () => Promise.resolve(),
  };
}
