// The JavaScript heap the gateway's code takes before it holds any tool: its modules (the MCP SDK,
// zod, the schema package's validators, its own) and the SDK's per-revision wire schemas, which a
// gateway builds as soon as it talks both revisions to its clients and to its upstreams. Measured in
// a fresh `node` (heap used after full collections, which does not depend on the machine's load).
// Under zod 4.2.1, whose schema instances carried ~30 closures each, the same load took ~52 MiB
// against ~22 MiB with the zod this workspace pins (BENCHMARKS.md, "Where the 1,000-tool RSS goes").
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const HEAP_BOUND_MIB = 32;

const PROBE = `
const used = () => { gc(); gc(); return process.memoryUsage().heapUsed / 2 ** 20; };
const before = used();
await import('./dist/index.js');
for (const sdk of ['@modelcontextprotocol/server', '@modelcontextprotocol/client']) (await import(sdk)).preloadSchemas();
process.stdout.write(JSON.stringify({ grown: used() - before }));
`;

describe('module heap footprint', () => {
  it(`the gateway's modules and the SDK's wire schemas take under ${HEAP_BOUND_MIB} MiB of heap`, { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--input-type=module', '-e', PROBE], { cwd: PACKAGE_DIR });
    const { grown } = JSON.parse(stdout) as { grown: number };
    expect(grown, `heap grown by ${grown.toFixed(1)} MiB`).toBeLessThan(HEAP_BOUND_MIB);
  });
});
