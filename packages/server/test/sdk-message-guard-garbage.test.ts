// The SDK classifies every JSON-RPC message it receives or sends with zod guards
// (isJSONRPCResultResponse, isJSONRPCErrorResponse, ...) that FAIL for most messages: a request is
// neither a result nor an error. With zod 4.2.1 each failing safeParse built a ZodError whose
// per-instance accessors and bound methods survive young-generation collections, so every listing
// left ~60-100 KB in the old generation until the next full collection: the gateway's RSS grew by
// ~40 MiB over the benchmark's listing rounds (BENCHMARKS.md, "RSS under listing load"). zod 4.6.7
// builds the error only when a caller reads it. This runs the guards the SDK runs on each inbound
// request, in a child process with V8's GC trace, and bounds the bytes promoted to the old generation.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 200;
const CALLS_PER_ROUND = 100;
// Measured for these 2 x 20,000 failing guard calls: ~30-32 MiB promoted with zod 4.6.7 (its schemas
// are also built lazily on first use, inside the loop), ~129-131 MiB with zod 4.2.1.
const PROMOTED_BOUND_MIB = 70;

const SCRIPT = `
import { isJSONRPCErrorResponse, isJSONRPCResultResponse } from '@modelcontextprotocol/server';
const request = { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } };
let wrong = 0;
console.log('guard-loop-start');
for (let round = 0; round < ${ROUNDS}; round++) {
  for (let i = 0; i < ${CALLS_PER_ROUND}; i++) if (isJSONRPCResultResponse(request) || isJSONRPCErrorResponse(request)) wrong++;
  // Let the event loop turn, as between requests (V8 runs its GC tasks there too).
  await new Promise((resolve) => setImmediate(resolve));
}
console.log('guard-loop-end ' + wrong);
`;

describe('the SDK message guards', () => {
  it(`promote less than ${PROMOTED_BOUND_MIB} MiB over ${(2 * ROUNDS * CALLS_PER_ROUND).toLocaleString('en')} failing calls`, { timeout: 60_000 }, () => {
    const run = spawnSync(process.execPath, ['--trace-gc-nvp', '--input-type=module', '-e', SCRIPT], { cwd: PACKAGE_DIR, encoding: 'utf8', timeout: 50_000 });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const start = lines.indexOf('guard-loop-start');
    const end = lines.findIndex((line) => line.startsWith('guard-loop-end'));
    expect(start, 'loop start marker').toBeGreaterThanOrEqual(0);
    expect(lines[end], 'no guard took a request for a response').toBe('guard-loop-end 0');
    let promoted = 0;
    let collections = 0;
    for (const line of lines.slice(start + 1, end)) {
      const bytes = /\bgc=s\b.*\bpromoted=(\d+)/.exec(line)?.[1];
      if (bytes === undefined) continue;
      collections += 1;
      promoted += Number(bytes);
    }
    // The trace must have been read: 40,000 guard calls allocate far more than one young generation.
    expect(collections, 'young-generation collections seen in the trace').toBeGreaterThan(2);
    const promotedMiB = promoted / 2 ** 20;
    expect(promotedMiB, `${promotedMiB.toFixed(1)} MiB promoted in ${collections} scavenges`).toBeLessThan(PROMOTED_BOUND_MIB);
  });
});
