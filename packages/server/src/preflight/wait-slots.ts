/**
 * A fixed number of concurrent wait_ms waits. A request that finds every slot taken answers at
 * once instead of queueing, so waiting callers can never pile up behind each other.
 */
export interface WaitSlots {
  /** A release function when a slot was free, else undefined. */
  tryAcquire(): (() => void) | undefined;
  readonly inUse: number;
}

export const DEFAULT_WAIT_SLOTS = 4;

export function createWaitSlots(size: number = DEFAULT_WAIT_SLOTS): WaitSlots {
  let inUse = 0;
  return {
    get inUse() {
      return inUse;
    },
    tryAcquire() {
      if (inUse >= size) return undefined;
      inUse += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        inUse -= 1;
      };
    },
  };
}
