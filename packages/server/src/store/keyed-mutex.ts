/**
 * Runs async sections one at a time per key, in the order they were asked for, within this
 * process. A key with nothing queued holds no memory.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, section: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let done!: () => void;
    const tail = new Promise<void>((resolve) => (done = resolve));
    this.tails.set(key, tail);
    await previous;
    try {
      return await section();
    } finally {
      done();
      // Only the last in line removes the key: a later caller has already replaced the tail.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
