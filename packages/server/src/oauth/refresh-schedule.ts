import type { WaitClock } from '../preflight/wait-clock.js';
import type { UpstreamOAuthRecord } from '../store/store.js';
import { storedTokens } from './stored-oauth-parts.js';

/** A refresh starts this long before the access token expires, at most (a fifth of its lifetime when shorter). */
const MAX_LEAD_MS = 60_000;
/** After a refresh that did not work, the next try comes half the token's remaining life later, within these bounds. */
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;
/** Timers longer than this are re-armed when they fire (setTimeout cannot wait 25 days). */
const LONGEST_TIMER_MS = 86_400_000;

/**
 * When each server's tokens are refreshed: ahead of the access token's expiry, so a call never meets
 * an expired token, on the injected clock (tests move it by hand). Without a refresh token the timer
 * fires at the expiry itself, when the login is needed again.
 */
export class RefreshSchedule {
  private readonly timers = new Map<string, () => void>();

  constructor(
    private readonly clock: WaitClock,
    private readonly due: (server: string) => void,
  ) {}

  plan(server: string, record: UpstreamOAuthRecord): void {
    this.cancel(server);
    const tokens = storedTokens(record);
    const expireAt = record.tokens_expire_at;
    if (tokens === undefined || expireAt === undefined) return;
    const lifetimeMs = typeof tokens.expires_in === 'number' ? tokens.expires_in * 1000 : 0;
    const leadMs = tokens.refresh_token === undefined ? 0 : Math.min(MAX_LEAD_MS, lifetimeMs / 5);
    this.at(server, expireAt - leadMs);
  }

  /** After a refresh that failed for now: tries again while the access token is good; false once it expired. */
  retry(server: string, record: UpstreamOAuthRecord): boolean {
    const expireAt = record.tokens_expire_at;
    const now = this.clock.now();
    if (expireAt === undefined || expireAt <= now) return false;
    this.at(server, now + Math.min(RETRY_MAX_MS, Math.max(RETRY_MIN_MS, (expireAt - now) / 2)));
    return true;
  }

  cancel(server: string): void {
    this.timers.get(server)?.();
    this.timers.delete(server);
  }

  clear(): void {
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
  }

  private at(server: string, when: number): void {
    this.cancel(server);
    const delay = Math.max(0, when - this.clock.now());
    const wait = Math.min(delay, LONGEST_TIMER_MS);
    this.timers.set(
      server,
      this.clock.setTimer(() => {
        this.timers.delete(server);
        if (wait < delay) this.at(server, when);
        else this.due(server);
      }, wait),
    );
  }
}
