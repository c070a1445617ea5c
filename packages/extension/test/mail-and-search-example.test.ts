// The README's example server, run exactly as shipped (examples/mail-and-search.mjs, a child process
// over stdio) against an SDK client on each revision: send_email is unavailable until SMTP_PASSWORD
// is set, search is server_initializing while its index warms up, and each check leaves one
// activity record on the example's stderr.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkValue, EXTENSION_ID, strictValidators } from '@mcpproxy/schema';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const EXAMPLE = fileURLToPath(new URL('../examples/mail-and-search.mjs', import.meta.url));
const ERAS = ['legacy', 'modern'] as const;

function negotiating(era: (typeof ERAS)[number]): Record<string, unknown> {
  const settings = { [EXTENSION_ID]: { version: 1 } };
  return era === 'legacy' ? { experimental: settings } : { extensions: settings };
}

describe.each(ERAS)('examples/mail-and-search.mjs, %s', (era) => {
  it('answers the rider from its own state and records the check', async () => {
    const client = new Client({ name: 'example-test', version: '1.0.0' }, { capabilities: negotiating(era), ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) });
    // An hour of warm-up: the index is still warming up whenever the rider arrives, however loaded the machine.
    const transport = new StdioClientTransport({ command: process.execPath, args: [EXAMPLE], env: { PATH: process.env.PATH ?? '', SEARCH_WARMUP_MS: '3600000' }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    await client.connect(transport);
    try {
      const listed = await client.request({ method: 'tools/list', params: { _meta: { [EXTENSION_ID]: { tools: [{ id: 'send_email' }, { id: 'search' }, { id: 'search' }, { id: 'archive' }] } } } });
      const facet = checkValue(strictValidators.ResponseFacet, listed._meta?.[EXTENSION_ID]);
      if (!facet.ok) throw new Error(`the facet is not schema-valid: ${JSON.stringify(facet)}`);
      expect(facet.value.verdict).not.toBe('ready');
      expect(facet.value.tools.map((t) => [t.id, t.reason ?? t.status])).toEqual([
        ['send_email', 'tool_blocked_by_user'],
        ['search', 'server_initializing'],
        ['archive', 'not_found'],
      ]);
      await expect.poll(() => stderr.split('\n').filter((line) => line.includes('"mcp-rider"')).length).toBe(1);
      const record = JSON.parse(stderr.split('\n').find((line) => line.includes('"mcp-rider"'))!) as { metadata: { verdict: string; ids_count: number } };
      expect(record.metadata).toMatchObject({ verdict: facet.value.verdict, ids_count: 3 });
    } finally {
      await client.close();
    }
  }, 60_000);
});
