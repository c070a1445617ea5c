import type { PreflightRuntime } from '../src/preflight/state-change.js';
import type { PublishedState } from '../src/state/gateway-runtime.js';

/**
 * Publishes states of a real runtime when the test says so, with fresh version numbers: the seam's
 * wait sees exactly the changes a test means, on real snapshots. `evaluations` records the clock's
 * time whenever an evaluation reads a prepared snapshot.
 */
export class ReplayRuntime implements PreflightRuntime {
  private state: PublishedState;
  private readonly listeners = new Set<(state: PublishedState) => void>();
  readonly evaluations: number[] = [];

  constructor(
    initial: PublishedState,
    private readonly now: () => number,
  ) {
    this.state = initial;
  }

  current(): PublishedState {
    const { snapshot, prepared } = this.state;
    const evaluations = this.evaluations;
    const now = this.now;
    return {
      snapshot,
      get prepared() {
        evaluations.push(now());
        return prepared;
      },
    };
  }

  subscribe(listener: (state: PublishedState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Publishes `state` (a real one) as the next version. */
  publish(state: PublishedState): void {
    const version = this.state.snapshot.version + 1;
    this.state = { snapshot: { ...state.snapshot, version }, prepared: state.prepared };
    for (const listener of [...this.listeners]) listener(this.state);
  }
}
