// The SDK's stdio transport, released after each read (src/upstream/stdio-read-buffer-release.ts),
// against the real fixture upstream: a 4,000-tool listing (~2.3 MB on one line, many pipe chunks)
// is read whole and correctly, twice, and once read its bytes are no longer held by the transport.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { catalogue } from '../bench/tool-catalogue.js';
import { releaseReadMessages } from '../src/upstream/stdio-read-buffer-release.js';
import { FIXTURE_MAIN, TempDir } from './gateway-harness.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const TOOLS = 4_000;

function arrayBufferBytes(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().arrayBuffers;
}

describe('stdio read buffer release', () => {
  let dir: TempDir;
  let client: Client | undefined;
  beforeAll(() => {
    dir = new TempDir();
  });
  afterAll(async () => {
    await client?.close();
    dir.remove();
  });

  it('reads a multi-chunk listing whole, twice, and keeps none of its bytes afterwards', { timeout: 60_000 }, async () => {
    const toolsFile = dir.tools('big', catalogue('big', TOOLS));
    const transport = new StdioClientTransport({ command: process.execPath, args: [FIXTURE_MAIN, '--tools', toolsFile, '--name', 'big'], stderr: 'pipe' });
    releaseReadMessages(transport);
    client = new Client({ name: 'read-buffer-test', version: '1.0.0' });
    await client.connect(transport);
    const before = arrayBufferBytes();

    const listed = async () => (await client!.listTools(undefined, { cacheMode: 'bypass' })).tools.map((tool) => tool.name);
    const first = await listed();
    expect(first).toHaveLength(TOOLS);
    expect(first).toEqual(catalogue('big', TOOLS).map((tool) => tool.name));
    // The second answer arrives through the buffer the first one left behind.
    expect(await listed()).toEqual(first);

    const listingBytes = Buffer.byteLength(JSON.stringify(catalogue('big', TOOLS)));
    const kept = arrayBufferBytes() - before;
    expect(kept, `${kept} bytes of ArrayBuffers kept after a ${listingBytes}-byte listing`).toBeLessThan(listingBytes / 4);
  });
});
