// The overload window of one upstream on a hand-moved clock: its length (Retry-After, capped, or a
// capped doubling backoff), that only the clock ends it, that answers in flight when it opened
// change nothing, and that 503s without Retry-After over three windows in a row mean unhealthy.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../src/upstream/retry-after.js';
import { BARE_503_WINDOWS_TO_UNHEALTHY, RETRY_AFTER_CAP_MS, SaturationWindow } from '../src/upstream/saturation-window.js';
import { ManualClock } from './manual-clock.js';

function windowOn(clock: ManualClock): { window: SaturationWindow; ended: () => number } {
  let ended = 0;
  const window = new SaturationWindow({ clock, backoff: { initialDelayMs: 1000, maxDelayMs: 4000 }, random: () => 1, onEnd: () => (ended += 1) });
  return { window, ended: () => ended };
}

describe('SaturationWindow', () => {
  it('holds for the Retry-After, and only the clock ends it', async () => {
    const clock = new ManualClock();
    const { window, ended } = windowOn(clock);
    expect(window.overloaded({ kind: 'http', status: 429, retryAfterMs: 2500 })).toEqual({ kind: 'saturated', saturation: { signal: 'HTTP 429', retry_after_s: 3 } });
    await clock.advance(2499);
    expect(window.current()).toEqual({ signal: 'HTTP 429', retry_after_s: 3 });
    expect(ended()).toBe(0);
    await clock.advance(1);
    expect(window.current()).toBeUndefined();
    expect(ended()).toBe(1);
  });

  it('caps a Retry-After at an hour', async () => {
    const clock = new ManualClock();
    const { window } = windowOn(clock);
    expect(window.overloaded({ kind: 'http', status: 503, retryAfterMs: 86_400_000 })).toEqual({ kind: 'saturated', saturation: { signal: 'HTTP 503', retry_after_s: RETRY_AFTER_CAP_MS / 1000 } });
    await clock.advance(RETRY_AFTER_CAP_MS);
    expect(window.current()).toBeUndefined();
  });

  it('without a Retry-After, doubles the window up to the cap until a normal answer resets it', async () => {
    const clock = new ManualClock();
    const { window } = windowOn(clock);
    const lengths: number[] = [];
    const measure = async () => {
      window.overloaded({ kind: 'json_rpc', code: -32042 });
      const opened = clock.now();
      while (window.current() !== undefined) await clock.advance(100);
      lengths.push(clock.now() - opened);
    };
    for (let i = 0; i < 4; i += 1) await measure();
    window.answered();
    await measure();
    expect(lengths).toEqual([1000, 2000, 4000, 4000, 1000]);
  });

  it('ignores an overload while a window is open (an answer to a request sent before it opened)', async () => {
    const clock = new ManualClock();
    const { window } = windowOn(clock);
    window.overloaded({ kind: 'http', status: 429 });
    expect(window.overloaded({ kind: 'http', status: 429, retryAfterMs: 600_000 })).toEqual({ kind: 'ignored' });
    await clock.advance(1000);
    expect(window.current()).toBeUndefined();
  });

  it(`turns ${BARE_503_WINDOWS_TO_UNHEALTHY} windows in a row opened by a 503 without Retry-After into unhealthy`, async () => {
    const clock = new ManualClock();
    const { window } = windowOn(clock);
    for (let i = 1; i < BARE_503_WINDOWS_TO_UNHEALTHY; i += 1) {
      expect(window.overloaded({ kind: 'http', status: 503 }).kind).toBe('saturated');
      await clock.advance(4000);
    }
    expect(window.overloaded({ kind: 'http', status: 503 })).toEqual({ kind: 'unhealthy', reason: 'answered 503 Service Unavailable without Retry-After in 3 backoff windows in a row' });
    expect(window.current()).toBeUndefined();
    expect(clock.pending).toBe(0);
    // Counted afresh after that.
    expect(window.overloaded({ kind: 'http', status: 503 }).kind).toBe('saturated');
  });

  it('a 503 with Retry-After, a 429 or a normal answer breaks the run of bare 503s', async () => {
    for (const breaker of ['retry-after', '429', 'answer'] as const) {
      const clock = new ManualClock();
      const { window } = windowOn(clock);
      window.overloaded({ kind: 'http', status: 503 });
      await clock.advance(4000);
      window.overloaded({ kind: 'http', status: 503 });
      await clock.advance(4000);
      if (breaker === 'answer') window.answered();
      else window.overloaded(breaker === '429' ? { kind: 'http', status: 429 } : { kind: 'http', status: 503, retryAfterMs: 1000 });
      await clock.advance(4000);
      expect(window.overloaded({ kind: 'http', status: 503 }).kind, breaker).toBe('saturated');
    }
  });

  it('close() ends the window without calling back and cancels its timer', async () => {
    const clock = new ManualClock();
    const { window, ended } = windowOn(clock);
    window.overloaded({ kind: 'http', status: 429, retryAfterMs: 5000 });
    window.close();
    expect(window.current()).toBeUndefined();
    expect(clock.pending).toBe(0);
    await clock.advance(10_000);
    expect(ended()).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2026, 11, 2, 6, 0, 0);

  it('reads delay-seconds and HTTP-dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 02 Dec 2026 06:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 02 Dec 2026 05:00:00 GMT', now)).toBe(0);
  });

  it('gives undefined for an absent or unreadable header', () => {
    for (const value of [null, undefined, '', '-5', '1.5', 'soon', '2026-12-02', 'Wed, 99 Foo 2026 GMT', '9'.repeat(20)]) {
      expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
    }
  });

  it('never throws and never gives a negative or non-integer delay for any header text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.integer({ min: 0, max: 4_000_000_000_000 }), (value, at) => {
        const parsed = parseRetryAfter(value, at);
        return parsed === undefined || (Number.isSafeInteger(parsed) && parsed >= 0);
      }),
    );
  });
});
