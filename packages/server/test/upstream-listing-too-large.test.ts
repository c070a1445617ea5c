// An upstream whose tools/list answer is larger than the stdio transport reads (10 MiB) fails its
// attempt with a last_error that says so (the listing, the limit), not "the upstream process exited",
// and waits the longest reconnect delay before reading it again.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UpstreamConnection } from '../src/upstream/upstream-connection.js';
import type { UpstreamStatus } from '../src/upstream/upstream-connection.js';
import { cleanupAfterEach } from './cleanup-after-each.js';
import { FIXTURE_MAIN, eventually } from './fixture-process.js';

const { defer, scratch } = cleanupAfterEach();
const MAX_DELAY_MS = 2_000;

describe('an upstream tool list over the transport limit', () => {
  it('is reported as a listing too large for the limit, and retried only after the longest backoff', async () => {
    const tools = scratch().file('huge.tools.json');
    // ~11 MiB in one tools/list answer
    writeFileSync(tools, JSON.stringify(Array.from({ length: 1100 }, (_, i) => ({ name: `tool_${i}`, description: 'x'.repeat(10_000) }))));
    const history: { at: number; status: UpstreamStatus }[] = [];
    // initialize, initialized, tools/list: three messages per attempt
    const sentAt: number[] = [];
    const connection = new UpstreamConnection(
      { name: 'huge', transport: 'stdio', command: process.execPath, args: [FIXTURE_MAIN, '--tools', tools], env: {} },
      {
        requestTimeoutMs: 30_000,
        callTimeoutMs: 30_000,
        // random 0.5: the n-th retry waits 3/4 of min(max, 50 * 2^n); the longest is 1,500 ms
        backoff: { initialDelayMs: 50, maxDelayMs: MAX_DELAY_MS },
        clientInfo: { name: 'test', version: '1' },
        random: () => 0.5,
        onMessageSent: () => sentAt.push(Date.now()),
        onChange: (status) => history.push({ at: Date.now(), status }),
      },
    );
    defer(() => connection.stop());
    connection.start();
    await eventually(() => expect(sentAt.length).toBeGreaterThanOrEqual(4), 60_000);
    const failed = history.find((h) => h.status.state === 'error')!;
    expect(failed.status.last_error).toBe(
      `its tool list (tools/list) is larger than the stdio transport's limit of ${10 * 1024 * 1024} bytes, so the gateway closed the connection; it retries after the longest reconnect delay (${MAX_DELAY_MS} ms)`,
    );
    expect(failed.status.diagnostic_action).toBe('view_logs');
    // The first retry starts no sooner than the longest delay allows (the doubling would start at 37 ms).
    expect(sentAt[3]! - failed.at).toBeGreaterThanOrEqual((MAX_DELAY_MS * 3) / 4 - 5);
  });
});
