// The start-up wait of the first stdio listing (first_listing_wait_ms), over the real runtime, store
// and fixture upstreams, on a clock that moves only when the test moves it: the wait ends when every
// listable server has settled (the clock never moved), or when the bound is reached while one is still
// starting, and there is none for servers whose tools cannot be listed or when it is 0.
import { describe, expect, it } from 'vitest';
import { startFirstListingWait } from '../src/mcp/first-listing-wait.js';
import { cleanupAfterEach } from './cleanup-after-each.js';
import { eventually } from './fixture-process.js';
import { ManualClock } from './manual-clock.js';
import { fixtureServer, startHarness } from './runtime-harness.js';

const cleanups = cleanupAfterEach();

/** A server whose process exits at once: its first attempt fails (settled, as `error`). */
const exitsAtOnce = (name: string) => ({ name, command: process.execPath, args: ['-e', 'process.exit(3)'], quarantined: false });
/** A fixture that answers nothing for an hour: it stays `connecting` for the whole test. */
const neverAnswers = (name: string) => fixtureServer(name, ['--demo', '--start-delay-ms', '3600000'], { quarantined: false });

describe('the first-listing wait', () => {
  it('ends as soon as every listable server has settled (ready or failed), without the clock moving', async () => {
    const scratch = cleanups.scratch();
    const pidFile = scratch.file('slow.pid');
    // The slow fixture holds its start until it gets SIGUSR1: released below, once the wait is on.
    const h = await startHarness(scratch, { upstream_timeout_ms: 600_000, servers: [fixtureServer('slow', ['--demo', '--start-delay-ms', '3600000', '--pid-file', pidFile], { quarantined: false }), exitsAtOnce('broken')] });
    cleanups.defer(() => h.stop());
    const clock = new ManualClock();
    const bounds: string[][] = [];
    const wait = startFirstListingWait(h.runtime, 60_000, clock, (starting) => bounds.push([...starting]));
    const pending = wait.pending();
    expect(pending).toBeDefined();
    await h.until('broken', (server) => server.connection.state === 'error');
    expect(wait.pending()).toBe(pending);
    await eventually(() => expect(scratch.readCount('slow.pid')).toBeGreaterThan(0));
    process.kill(scratch.readCount('slow.pid'), 'SIGUSR1');
    await pending;
    expect(h.server('slow').connection.state).toBe('ready');
    expect(h.server('broken').connection.state).toBe('error');
    expect(clock.now()).toBe(0);
    expect(clock.pending).toBe(0);
    expect(bounds).toEqual([]);
    expect(wait.pending()).toBeUndefined();
  });

  it('ends at the bound while a server is still starting, naming it, and not a moment before', async () => {
    const scratch = cleanups.scratch();
    const h = await startHarness(scratch, { upstream_timeout_ms: 600_000, servers: [neverAnswers('hang'), fixtureServer('fast', ['--demo'], { quarantined: false })] });
    cleanups.defer(() => h.stop());
    const clock = new ManualClock();
    const bounds: string[][] = [];
    const wait = startFirstListingWait(h.runtime, 5000, clock, (starting) => bounds.push([...starting]));
    let ended = false;
    void wait.pending()?.then(() => (ended = true));
    await h.until('fast', (server) => server.connection.state === 'ready');
    await clock.advance(4999);
    expect(ended).toBe(false);
    expect(wait.pending()).toBeDefined();
    await clock.advance(1);
    expect(ended).toBe(true);
    expect(bounds).toEqual([['hang']]);
    expect(wait.pending()).toBeUndefined();
    expect(h.server('hang').connection.state).toBe('connecting');
  });

  it('does not wait for quarantined or disabled servers (their tools are not listed), nor at all when the bound is 0', async () => {
    const scratch = cleanups.scratch();
    const h = await startHarness(scratch, {
      upstream_timeout_ms: 600_000,
      servers: [
        // New to the store with tool quarantine on: starts quarantined.
        fixtureServer('unreviewed', ['--demo', '--start-delay-ms', '3600000']),
        fixtureServer('off', ['--demo'], { quarantined: false, enabled: false }),
      ],
    });
    cleanups.defer(() => h.stop());
    expect(h.server('unreviewed').quarantined).toBe(true);
    const clock = new ManualClock();
    expect(startFirstListingWait(h.runtime, 60_000, clock).pending()).toBeUndefined();
    expect(clock.setCount).toBe(0);

    const other = cleanups.scratch();
    const starting = await startHarness(other, { upstream_timeout_ms: 600_000, servers: [neverAnswers('hang')] });
    cleanups.defer(() => starting.stop());
    expect(startFirstListingWait(starting.runtime, 60_000, clock).pending()).toBeDefined();
    expect(startFirstListingWait(starting.runtime, 0, clock).pending()).toBeUndefined();
  });

  it('ends at once when the gateway closes', async () => {
    const scratch = cleanups.scratch();
    const h = await startHarness(scratch, { upstream_timeout_ms: 600_000, servers: [neverAnswers('hang')] });
    cleanups.defer(() => h.stop());
    const clock = new ManualClock();
    const wait = startFirstListingWait(h.runtime, 60_000, clock);
    const pending = wait.pending();
    wait.end();
    await pending;
    expect(clock.pending).toBe(0);
  });
});
