// `mcpproxy servers list` names the tools a faulty upstream lists but the gateway does not serve
// (a malformed definition, a name listed twice), with the reason, in the table and in -o json,
// and a preflight of one is not_found (exit 12) with a detail that names the invalid definition.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURE_MAIN, runCli, Scratch, serveGateway, waitForServer, type ServedGateway } from './cli-harness.js';

let scratch: Scratch;
let gw: ServedGateway;
const cli = (args: readonly string[]) => runCli([...args, ...gw.flags]);

beforeAll(async () => {
  scratch = new Scratch();
  const tools = [
    { name: 'good', echo: true },
    { name: 'bad', inputSchema: null },
    { name: 'twin', description: 'one' },
    { name: 'twin', description: 'two', duplicate: true },
  ];
  const toolsFile = scratch.file('faulty.tools.json', JSON.stringify(tools));
  gw = await serveGateway(scratch, {
    servers: [{ name: 'faulty', command: process.execPath, args: [FIXTURE_MAIN, '--tools', toolsFile], quarantined: false }],
  });
  // Before the fix the server ended in error here; the test then fails on its state below.
  await waitForServer(gw, 'faulty', ['ready', 'error']);
});
afterAll(async () => {
  await gw?.stop();
  scratch?.remove();
});

it('servers list: the table says which tools are not served and why; json carries invalid_tools', async () => {
  const table = await cli(['servers', 'list']);
  expect(table.code).toBe(0);
  const lines = table.stdout.split('\n');
  expect(lines[1]).toMatch(/^faulty +ready +yes +no +1\/1 +-$/);
  expect(lines.slice(2)).toEqual([
    expect.stringMatching(/^Not served by faulty: bad \(listing position 1\): inputSchema: .*null/),
    'Not served by faulty: twin (listing position 2): listed 2 times (positions 2, 3): none of them is served',
    '',
  ]);
  const doc = JSON.parse((await cli(['servers', 'list', '-o', 'json'])).stdout) as { servers: { invalid_tools?: { name?: string }[] }[] };
  expect(doc.servers[0]?.invalid_tools?.map((entry) => entry.name)).toEqual(['bad', 'twin']);
});

it('tools preflight of an invalid one: not_found, exit 12, the detail names the invalid definition', async () => {
  const run = await cli(['tools', 'preflight', 'faulty:bad', 'faulty:good']);
  expect(run.code).toBe(12);
  expect(run.stdout).toContain('Tool faulty:bad is listed by server faulty with an invalid definition');
  expect(run.stdout).toMatch(/faulty:good +ready/);
});
