import type { WaitClock } from '../src/preflight/wait-clock.js';

interface Timer {
  readonly at: number;
  readonly order: number;
  readonly fire: () => void;
}

/**
 * A WaitClock that moves only when the test says so. Timers fire in time order as it is moved past
 * them, and each firing gets the event loop's turn its awaiting code needs before the next one.
 */
export class ManualClock implements WaitClock {
  private time = 0;
  private next = 0;
  private readonly timers = new Set<Timer>();
  /** How many timers were ever set (a wait that never started sets none). */
  setCount = 0;

  now(): number {
    return this.time;
  }

  setTimer(fire: () => void, ms: number): () => void {
    const timer: Timer = { at: this.time + Math.max(0, ms), order: (this.next += 1), fire };
    this.timers.add(timer);
    this.setCount += 1;
    return () => this.timers.delete(timer);
  }

  get pending(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing every timer due on the way. */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter((t) => t.at <= until).sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (due === undefined) break;
      this.timers.delete(due);
      this.time = due.at;
      due.fire();
      await settle();
    }
    this.time = until;
    await settle();
  }
}

/** Lets promise chains woken by a timer or a publish run to their next wait. */
export async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i += 1) await new Promise((resolve) => setImmediate(resolve));
}
