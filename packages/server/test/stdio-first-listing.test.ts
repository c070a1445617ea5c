// The desktop setup's first listing: an SDK client spawns `serve --stdio` and lists at once, before a
// slow upstream has finished its first listing (the fixture holds its start until SIGUSR1). With
// first_listing_wait_ms the answer waits for it, so a client that ignores
// notifications/tools/list_changed still sees its tools; with 0 it does not wait.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { eventually } from './fixture-process.js';
import { FIXTURE_MAIN, SERVE_MAIN, TempDir } from './gateway-harness.js';

let dir: TempDir;
beforeAll(() => {
  dir = new TempDir();
});
afterAll(() => dir?.remove());

function config(name: string, firstListingWaitMs: number): string {
  return dir.file(
    `${name}.json`,
    JSON.stringify({
      data_dir: join(dir.path, `${name}-data`),
      api_key: 'a-configured-admin-key-123',
      first_listing_wait_ms: firstListingWaitMs,
      upstream_timeout_ms: 600_000,
      // Answers nothing until it gets SIGUSR1 (or for an hour).
      servers: [{ name: 'slow', command: process.execPath, args: [FIXTURE_MAIN, '--demo', '--start-delay-ms', '3600000', '--pid-file', join(dir.path, `${name}.pid`)], quarantined: false }],
    }),
  );
}

/**
 * The first tools/list of a fresh stdio gateway, with the upstream's start released while that listing
 * is pending (`releaseFirst`) or only once it has come back.
 */
async function firstListing(name: string, firstListingWaitMs: number, releaseFirst: boolean): Promise<string[]> {
  const client = new Client({ name: 'first-listing-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVE_MAIN, '--stdio', '--config', config(name, firstListingWaitMs)], stderr: 'ignore' }));
  try {
    const listing = client.listTools(undefined, { cacheMode: 'bypass' });
    if (releaseFirst) await releaseStart(name);
    const names = (await listing).tools.map((tool) => tool.name);
    // A start still held would outlive the gateway, whose shutdown the client cuts short after 2 s.
    if (!releaseFirst) await releaseStart(name);
    return names;
  } finally {
    await client.close();
  }
}

/** Ends the named fixture's start delay once it has written its pid. */
async function releaseStart(name: string): Promise<void> {
  const pidFile = join(dir.path, `${name}.pid`);
  await eventually(() => expect(existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '').toBe(true));
  process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGUSR1');
}

describe('serve --stdio, the first tools/list', () => {
  it('waits for a slow upstream\'s first listing and lists its tools', async () => {
    expect(await firstListing('waits', 60_000, true)).toEqual(['describe_tool', 'slow:delete_everything', 'slow:echo', 'slow:get_greeting']);
  });

  it('answers at once with first_listing_wait_ms 0', async () => {
    // The upstream is released only after the answer: only a listing that did not wait can have come back.
    expect(await firstListing('off', 0, false)).toEqual(['describe_tool']);
  });
});
