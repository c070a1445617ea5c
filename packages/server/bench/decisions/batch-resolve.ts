// Decision record 0004 (docs/decisions/0004-shape-b-batch.md): what a client pays to learn whether N
// tools are usable, for N = 1, 10, 50, three ways, through the real gateway (dist/bin/serve.js,
// needs a build) over 10 fixture upstreams x 100 tools, with extension_experiments: ["batch_resolve"]:
//   single: N tools/resolve POSTs, one after the other (Shape B today; the client aggregates the set);
//   batch:  one tools/resolve with { batch: [...] } (the prototype; the set verdict comes with it);
//   rider:  one tools/list with the Shape A rider naming the N tools (the answer carries the listing).
// 2026-07-28 stateless POSTs (each declares the extension and experimental.batch_resolve), raw HTTP
// on one keep-alive connection, 127.0.0.1 only, alternating per round; gateway CPU from
// /proc/<pid>/stat around each call. Bounded: BENCH_ROUNDS rounds (default 60) and a 4-minute watchdog.
// Run: cd packages/server && npx tsx bench/decisions/batch-resolve.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTENSION_ID, reasonTreatment, worstVerdict, type ResolveFacet } from '@mcpproxy/schema';
import { reportTarget } from '../bench-target.js';
import { startCatalogueGateway, type CatalogueGateway } from '../catalogue-gateway.js';
import { rawTarget, rawToolsList, type RawPost } from '../raw-tools-list.js';
import { jsonRpcResult, medianAndSpread, processCpuMs } from './process-cpu.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 60);
const WARMUP = 5;
const UPSTREAMS = 10;
const PER_UPSTREAM = 100;
const SIZES = [1, 10, 50] as const;
const MODERN = '2026-07-28';

const work = mkdtempSync(join(tmpdir(), 'mcpproxy-decision-0004-'));
let gateway: CatalogueGateway | undefined;
const watchdog = setTimeout(() => {
  process.stderr.write('bench: watchdog: giving up after 4 minutes\n');
  void cleanUp().then(() => process.exit(2));
}, 4 * 60_000);

async function cleanUp(): Promise<void> {
  clearTimeout(watchdog);
  await gateway?.child.stop();
  rmSync(work, { recursive: true, force: true });
}

/** N served IDs spread over the upstreams, read_only_only (a third of the catalogue is not read-only, so verdicts mix). */
function ids(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `up${i % UPSTREAMS}:t${i % UPSTREAMS}_${String((i * 7) % PER_UPSTREAM).padStart(4, '0')}`);
}

function post(method: string, params: Record<string, unknown>): RawPost {
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXTENSION_ID]: { version: 1, experimental: { batch_resolve: true } } } },
  };
  const meta = { ...envelope, ...((params['_meta'] as object | undefined) ?? {}) };
  return { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }), headers: { 'mcp-protocol-version': MODERN, 'mcp-method': method } };
}

const policy = { [EXTENSION_ID]: { policy: { read_only_only: true } } };
const posts = (n: number) => ({
  single: ids(n).map((name) => post('tools/resolve', { name, _meta: policy })),
  batch: [post('tools/resolve', { batch: ids(n).map((name) => ({ name })), _meta: policy })],
  rider: [post('tools/list', { _meta: { [EXTENSION_ID]: { tools: ids(n).map((id) => ({ id })), policy: { read_only_only: true } } } })],
});
type Way = keyof ReturnType<typeof posts>;
const WAYS: readonly Way[] = ['single', 'batch', 'rider'];

/** The verdict a client without the set facet computes from N Shape B facets (every code mapped through the registry). */
function aggregate(facets: readonly ResolveFacet[]): string {
  return worstVerdict(facets.map((facet) => (facet.status === 'ready' ? 'ready' : reasonTreatment(facet.reason ?? '').verdict)));
}

async function main(): Promise<void> {
  const load = loadavg().map((x) => x.toFixed(2)).join(' ');
  gateway = await startCatalogueGateway(work, { upstreams: UPSTREAMS, perUpstream: PER_UPSTREAM, config: { extension_experiments: ['batch_resolve'] } });
  const pid = gateway.child.process.pid!;
  const target = rawTarget(gateway.url);
  const rows: string[] = [];
  for (const n of SIZES) {
    const sent = posts(n);
    const ms: Record<Way, number[]> = { single: [], batch: [], rider: [] };
    const cpu: Record<Way, number> = { single: 0, batch: 0, rider: 0 };
    const bytes: Record<Way, number> = { single: 0, batch: 0, rider: 0 };
    const verdicts: Record<Way, string> = { single: '', batch: '', rider: '' };
    let aggregateUs = 0;
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const order = WAYS.map((_, i) => WAYS[(i + round) % WAYS.length]!);
      for (const way of order) {
        const before = processCpuMs(pid);
        let elapsed = 0;
        let size = 0;
        const bodies: Buffer[] = [];
        for (const request of sent[way]) {
          const answer = await rawToolsList(target, request);
          elapsed += answer.ms;
          size += answer.bytes + Buffer.byteLength(request.body);
          bodies.push(answer.body);
        }
        if (round < WARMUP) continue;
        ms[way].push(elapsed);
        cpu[way] += processCpuMs(pid) - before;
        bytes[way] = size;
        if (round === WARMUP) {
          if (way === 'single') {
            const facets = bodies.map((body) => (jsonRpcResult(body)['tool'] as { _meta: Record<string, ResolveFacet> })._meta[EXTENSION_ID]!);
            const started = process.hrtime.bigint();
            for (let k = 0; k < 1000; k++) verdicts.single = aggregate(facets);
            aggregateUs = Number(process.hrtime.bigint() - started) / 1e3 / 1000;
          }
          if (way === 'batch') verdicts.batch = (jsonRpcResult(bodies[0]!)['_meta'] as Record<string, { verdict: string }>)[EXTENSION_ID]!.verdict;
          if (way === 'rider') verdicts.rider = (jsonRpcResult(bodies[0]!)['_meta'] as Record<string, { verdict: string }>)[EXTENSION_ID]!.verdict;
        }
      }
    }
    if (new Set(Object.values(verdicts)).size !== 1) throw new Error(`N=${n}: the three ways disagree: ${JSON.stringify(verdicts)}`);
    for (const way of WAYS) {
      rows.push(
        `N=${String(n).padStart(2)} ${way.padEnd(6)} ${sent[way].length} POST(s)  ${medianAndSpread(ms[way]).text}  ${bytes[way]} bytes  gateway CPU ${(cpu[way] / ROUNDS).toFixed(2)} ms/check  verdict ${verdicts[way]}`,
      );
    }
    rows.push(`N=${String(n).padStart(2)} client-side aggregation of ${n} Shape B facets (worst class via the reason registry): ${aggregateUs.toFixed(2)} us`);
    const ratio = medianAndSpread(ms.batch).median / medianAndSpread(ms.single).median;
    reportTarget({
      id: `decision-0004-batch-n${n}`,
      measure: `one batch tools/resolve vs ${n} single tools/resolve, ${UPSTREAMS * PER_UPSTREAM} tools, 2026-07-28, same run`,
      figure: `${ratio.toFixed(2)}x (${medianAndSpread(ms.batch).median.toFixed(2)} ms vs ${medianAndSpread(ms.single).median.toFixed(2)} ms median; rider ${medianAndSpread(ms.rider).median.toFixed(2)} ms)`,
      target: 'informational (decision record 0004)',
      met: true,
    });
  }
  process.stdout.write(`load average at start: ${load}; at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}; ${ROUNDS} rounds after ${WARMUP} warm-up, alternating\n${rows.join('\n')}\n`);
}

main()
  .then(cleanUp)
  .catch(async (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
    await cleanUp();
    process.exit(1);
  });
