// The README's example server, run exactly as shipped (examples/mail-and-search.mjs, a child process
// over stdio) against an SDK client on each revision: send_email is unavailable until SMTP_PASSWORD
// is set, search is server_initializing while its index warms up, both are ready once the secret is
// set and the index warm, and each check leaves one activity record on the example's stderr.
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

/** The example as a child process over stdio, its SDK client negotiating the extension on `era`; its stderr (the activity records) collected. */
async function startExample(era: (typeof ERAS)[number], env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: 'example-test', version: '1.0.0' }, { capabilities: negotiating(era), ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}) });
  const transport = new StdioClientTransport({ command: process.execPath, args: [EXAMPLE], env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

async function riderFacet(client: Client, ids: readonly string[]) {
  const listed = await client.request({ method: 'tools/list', params: { _meta: { [EXTENSION_ID]: { tools: ids.map((id) => ({ id })) } } } });
  const facet = checkValue(strictValidators.ResponseFacet, listed._meta?.[EXTENSION_ID]);
  if (!facet.ok) throw new Error(`the facet is not schema-valid: ${JSON.stringify(facet)}`);
  return facet.value;
}

/** The example's activity records of rider checks, once `count` have arrived (stderr and stdout are separate pipes). */
async function riderRecords(stderr: () => string, count: number): Promise<{ metadata: { verdict: string; ids_count: number } }[]> {
  const lines = () => stderr().split('\n').filter((line) => line.includes('"mcp-rider"'));
  await expect.poll(() => lines().length, { timeout: 30_000 }).toBe(count);
  return lines().map((line) => JSON.parse(line) as { metadata: { verdict: string; ids_count: number } });
}

describe.each(ERAS)('examples/mail-and-search.mjs, %s', (era) => {
  it('answers the rider from its own state and records the check', async () => {
    // An hour of warm-up: the index is still warming up whenever the rider arrives, however loaded the machine.
    const { client, stderr } = await startExample(era, { SEARCH_WARMUP_MS: '3600000' });
    try {
      const facet = await riderFacet(client, ['send_email', 'search', 'search', 'archive']);
      expect(facet.verdict).not.toBe('ready');
      expect(facet.tools.map((t) => [t.id, t.reason ?? t.status])).toEqual([
        ['send_email', 'tool_blocked_by_user'],
        ['search', 'server_initializing'],
        ['archive', 'not_found'],
      ]);
      const [record] = await riderRecords(stderr, 1);
      expect(record!.metadata).toMatchObject({ verdict: facet.verdict, ids_count: 3 });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('with SMTP_PASSWORD set and the index warm, both tools are ready', async () => {
    // No warm-up at all: the index is warm before the first message arrives.
    const { client, stderr } = await startExample(era, { SMTP_PASSWORD: 'example-secret', SEARCH_WARMUP_MS: '0' });
    try {
      const facet = await riderFacet(client, ['send_email', 'search']);
      expect(facet.verdict).toBe('ready');
      expect(facet.tools).toEqual([
        { id: 'send_email', status: 'ready' },
        { id: 'search', status: 'ready' },
      ]);
      // Served now, so the client can call it.
      const listed = await client.listTools();
      expect(listed.tools.map((t) => t.name).sort()).toEqual(['describe_tool', 'search', 'send_email']);
      const [record] = await riderRecords(stderr, 1);
      expect(record!.metadata).toMatchObject({ verdict: 'ready', ids_count: 2 });
    } finally {
      await client.close();
    }
  }, 60_000);
});
