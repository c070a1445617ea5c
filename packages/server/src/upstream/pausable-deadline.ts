import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/**
 * A call's timeout that does not run while the call waits on the downstream client (a sampling or an
 * elicitation the upstream asked for, which a person may take minutes to answer): the upstream's own
 * time is what the timeout bounds. `signal` aborts with the SDK's timeout error when it expires.
 */
export class PausableDeadline {
  readonly #controller = new AbortController();
  #remaining: number;
  #startedAt = 0;
  #timer: NodeJS.Timeout | undefined;
  #paused = 0;

  constructor(readonly timeoutMs: number) {
    this.#remaining = timeoutMs;
    this.#arm();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Stops the clock until every pause has been resumed. */
  pause(): void {
    if (this.#paused++ > 0 || this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#remaining -= performance.now() - this.#startedAt;
  }

  resume(): void {
    if (this.#paused === 0 || --this.#paused > 0 || this.#controller.signal.aborted) return;
    this.#arm();
  }

  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    this.#startedAt = performance.now();
    this.#timer = setTimeout(() => this.#controller.abort(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: this.timeoutMs })), Math.max(0, this.#remaining));
    this.#timer.unref();
  }
}
