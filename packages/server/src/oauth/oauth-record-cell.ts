import type { Store, UpstreamOAuthRecord } from '../store/store.js';

const EMPTY: UpstreamOAuthRecord = Object.freeze({});

/**
 * One server's OAuth record, read from the store once and then kept here: the transport asks for the
 * access token before every request, which must not cost a store round trip. Every write goes through
 * `update`, one at a time per server (a refresh and a login finishing together must not lose one
 * another's write), and reaches the store before the cached copy changes.
 */
export class OAuthRecordCell {
  private cached: UpstreamOAuthRecord | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Pick<Store, 'getUpstreamOAuth' | 'setUpstreamOAuth'>,
    readonly server: string,
  ) {}

  async read(): Promise<UpstreamOAuthRecord> {
    if (this.cached === undefined) this.cached = (await this.store.getUpstreamOAuth(this.server)) ?? EMPTY;
    return this.cached;
  }

  /**
   * Reads the store again, after the writes in flight: before a refresh, where another gateway on a
   * shared store may have rotated the refresh token since this one cached it.
   */
  reload(): Promise<UpstreamOAuthRecord> {
    const next = this.queue.then(async () => {
      this.cached = (await this.store.getUpstreamOAuth(this.server)) ?? EMPTY;
      return this.cached;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Applies `change` to the current record and stores the result; settles once it is stored. */
  update(change: (record: UpstreamOAuthRecord) => UpstreamOAuthRecord): Promise<UpstreamOAuthRecord> {
    const next = this.queue.then(async () => {
      const updated = change(await this.read());
      await this.store.setUpstreamOAuth(this.server, updated);
      this.cached = updated;
      return updated;
    });
    // A failed write must not block the writes after it.
    this.queue = next.catch(() => undefined);
    return next;
  }
}
