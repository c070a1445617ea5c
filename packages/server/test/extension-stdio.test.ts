// The extension over stdio (`serve --stdio`), the other way an MCP client reaches the gateway: an
// SDK client on each revision negotiates and gets the verdict with one tools/list, and resolves.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkValue, EXTENSION_ID, strictValidators } from '@mcpproxy/schema';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { z } from 'zod';
import { ERAS, FIXTURE_MAIN, SERVE_MAIN, TempDir } from './gateway-harness.js';
import { negotiating } from './raw-mcp-session.js';

let dir: TempDir;
let config: string;

beforeAll(() => {
  dir = new TempDir();
  config = dir.file(
    'stdio.json',
    JSON.stringify({
      data_dir: join(dir.path, 'data'),
      api_key: 'a-configured-admin-key-123',
      servers: [{ name: 'demo', command: process.execPath, args: [FIXTURE_MAIN, '--demo'], quarantined: false }],
    }),
  );
});

afterAll(() => {
  dir?.remove();
});

describe.each(ERAS)('serve --stdio, %s', (era) => {
  it('negotiates the extension, answers the rider beside the listing, and resolves', async () => {
    const client = new Client({ name: 'stdio-rider-test', version: '1.0.0' }, { capabilities: negotiating(era), ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVE_MAIN, '--stdio', '--config', config], stderr: 'ignore' }));
    try {
      await expect.poll(async () => (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name), { timeout: 15_000 }).toContain('demo:echo');
      const listed = await client.request({ method: 'tools/list', params: { _meta: { [EXTENSION_ID]: { tools: [{ id: 'demo:echo' }, { id: 'demo:nope' }] } } } });
      const facet = checkValue(strictValidators.ResponseFacet, listed._meta?.[EXTENSION_ID]);
      expect(facet.ok && facet.value.tools.map((t) => t.reason ?? t.status)).toEqual(['ready', 'not_found']);
      const resolved = await client.request({ method: 'tools/resolve', params: { name: 'demo:echo', arguments: {} } }, z.looseObject({ tool: z.looseObject({ _meta: z.record(z.string(), z.unknown()) }) }));
      expect(resolved.tool._meta[EXTENSION_ID]).toEqual({ status: 'ready' });
    } finally {
      await client.close();
    }
  }, 60_000);
});
