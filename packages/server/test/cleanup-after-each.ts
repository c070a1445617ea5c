// Per-test teardown for tests that start processes and write temp files: register what to undo
// as you go; it is undone after each test, last first.
import { afterEach } from 'vitest';
import { Scratch } from './fixture-process.js';

export interface Cleanups {
  defer(undo: () => Promise<void> | void): void;
  /** A scratch directory removed after the test. */
  scratch(): Scratch;
}

export function cleanupAfterEach(): Cleanups {
  const pending: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const undo of pending.splice(0).reverse()) await undo();
  });
  return {
    defer: (undo) => void pending.push(undo),
    scratch: () => {
      const s = new Scratch();
      pending.push(() => s.remove());
      return s;
    },
  };
}
