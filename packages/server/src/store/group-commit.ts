export interface GroupCommitOptions {
  /** Commits at most this many at once; items added meanwhile wait and go together in the next one. */
  readonly maxInFlight: number;
  /** Items in one commit at most. */
  readonly maxBatch: number;
}

interface Waiting<T, R> {
  readonly item: T;
  resolve(result: R): void;
  reject(cause: unknown): void;
}

/**
 * Group commit for a store whose commit is a round trip: items added during one turn of the event
 * loop are committed together (one statement, one transaction), and while `maxInFlight` commits are
 * under way new items gather for the next, so batches grow with the load instead of the round trips.
 * Each item's promise settles once the commit that carried it has (resolved with its result, or
 * rejected with the commit's failure), so "written before the answer" holds for every caller.
 */
export class GroupCommit<T, R> {
  private readonly waiting: Waiting<T, R>[] = [];
  private scheduled = false;
  private inFlight = 0;
  private readonly idle: (() => void)[] = [];

  constructor(
    private readonly commit: (items: readonly T[]) => Promise<readonly R[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.send();
      });
    });
  }

  /** Settles once every item added so far has been committed or has failed. */
  drained(): Promise<void> {
    if (this.waiting.length === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private send(): void {
    while (this.waiting.length > 0 && this.inFlight < this.options.maxInFlight) {
      const batch = this.waiting.splice(0, this.options.maxBatch);
      this.inFlight += 1;
      this.commit(batch.map((waiting) => waiting.item))
        .then((results) => {
          if (results.length !== batch.length) throw new Error(`a commit of ${batch.length} items returned ${results.length} results`);
          batch.forEach((waiting, i) => waiting.resolve(results[i]!));
        })
        .catch((cause: unknown) => {
          for (const waiting of batch) waiting.reject(cause);
        })
        .finally(() => {
          this.inFlight -= 1;
          this.send();
          if (this.waiting.length === 0 && this.inFlight === 0) for (const resume of this.idle.splice(0)) resume();
        });
    }
  }
}
