// The desktop setup's first listing: an SDK client spawns `serve --stdio` and lists at once, before a
// slow upstream has finished its first listing. With first_listing_wait_ms the answer waits for it, so
// a client that ignores notifications/tools/list_changed still sees its tools; with 0 it does not wait.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { FIXTURE_MAIN, SERVE_MAIN, TempDir } from './gateway-harness.js';

let dir: TempDir;
beforeAll(() => {
  dir = new TempDir();
});
afterAll(() => dir?.remove());

function config(name: string, firstListingWaitMs: number, startDelayMs: number): string {
  return dir.file(
    `${name}.json`,
    JSON.stringify({
      data_dir: join(dir.path, `${name}-data`),
      api_key: 'a-configured-admin-key-123',
      first_listing_wait_ms: firstListingWaitMs,
      upstream_timeout_ms: 600_000,
      // Answers nothing for a while after its spawn: the client's first tools/list arrives before.
      servers: [{ name: 'slow', command: process.execPath, args: [FIXTURE_MAIN, '--demo', '--start-delay-ms', String(startDelayMs)], quarantined: false }],
    }),
  );
}

async function firstListing(configFile: string): Promise<string[]> {
  const client = new Client({ name: 'first-listing-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVE_MAIN, '--stdio', '--config', configFile], stderr: 'ignore' }));
  try {
    return (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

describe('serve --stdio, the first tools/list', () => {
  it('waits for a slow upstream\'s first listing and lists its tools', async () => {
    expect(await firstListing(config('waits', 60_000, 3000))).toEqual(['describe_tool', 'slow:delete_everything', 'slow:echo', 'slow:get_greeting']);
  });

  it('answers at once with first_listing_wait_ms 0', async () => {
    // This upstream answers nothing for an hour: only a listing that did not wait can have come back.
    expect(await firstListing(config('off', 0, 3_600_000))).toEqual(['describe_tool']);
  });
});
