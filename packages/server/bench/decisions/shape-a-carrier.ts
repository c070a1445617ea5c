// Decision record 0001 (docs/decisions/0001-shape-a-carrier.md): what a client pays for one Shape A
// check through each carrier, tools/list (today) and ping (the ping_carrier prototype), at 10, 1,000
// and 10,000 tools, on both revisions: 2026-07-28 stateless POSTs and a 2025-11-25 session. The real
// gateway (dist/bin/serve.js, needs a build) with extension_experiments: ["ping_carrier"], one per
// size (1 x 10, 10 x 100 and 9 x 1,111 fixture tools plus describe_tool: 11, 1,001 and 10,000), 127.0.0.1 only. Each check
// is one POST naming 10 served IDs under read_only_only; the four ways alternate in a rotating order
// each round on one keep-alive connection; latency is the POST until its body is read whole, bytes
// the request plus response bodies, gateway CPU its utime+stime from /proc around each POST.
// Bounded: BENCH_ROUNDS rounds (default 40) per size and a 6-minute watchdog.
// Run: cd packages/server && npx tsx bench/decisions/shape-a-carrier.ts
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTENSION_ID } from '@mcpproxy/schema';
import { reportTarget } from '../bench-target.js';
import { startCatalogueGateway, type CatalogueGateway } from '../catalogue-gateway.js';
import { rawTarget, rawToolsList, type RawPost } from '../raw-tools-list.js';
import { legacyPair } from '../rider-posts.js';
import { jsonRpcResult, medianAndSpread, processCpuMs } from './process-cpu.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 40);
const WARMUP = 3;
const SIZES = [
  { upstreams: 1, perUpstream: 10 },
  { upstreams: 10, perUpstream: 100 },
  { upstreams: 9, perUpstream: 1111 }, // 9,999 + describe_tool = 10,000: one page (page_size is at most 10,000)
] as const;
const MODERN = '2026-07-28';
const DECLARATION = { version: 1, experimental: { ping_carrier: true } };

const work = mkdtempSync(join(tmpdir(), 'mcpproxy-decision-0001-'));
let gateway: CatalogueGateway | undefined;
const watchdog = setTimeout(() => {
  process.stderr.write('bench: watchdog: giving up after 6 minutes\n');
  void cleanUp().then(() => process.exit(2));
}, 6 * 60_000);

async function cleanUp(): Promise<void> {
  await gateway?.child.stop();
  gateway = undefined;
}

function rider(upstreams: number, perUpstream: number): unknown {
  const ids = Array.from({ length: 10 }, (_, i) => `up${i % upstreams}:t${i % upstreams}_${String((i * 7) % perUpstream).padStart(4, '0')}`);
  return { tools: ids.map((id) => ({ id })), policy: { read_only_only: true } };
}

function modernPost(method: 'tools/list' | 'ping', check: unknown): RawPost {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXTENSION_ID]: DECLARATION } },
    [EXTENSION_ID]: check,
  };
  return { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta: meta } }), headers: { 'mcp-protocol-version': MODERN, 'mcp-method': method } };
}

// 2026-07-28 has no ping (the revision's request methods do not include it): that way is probed once
// and reported, not timed.
type Way = 'list-2026' | 'list-2025' | 'ping-2025';
const WAYS: readonly Way[] = ['list-2026', 'list-2025', 'ping-2025'];

async function measureSize(upstreams: number, perUpstream: number): Promise<string[]> {
  const dir = join(work, `${upstreams}x${perUpstream}`);
  mkdirSync(dir);
  gateway = await startCatalogueGateway(dir, { upstreams, perUpstream, config: { extension_experiments: ['ping_carrier'] }, startMs: 180_000 });
  const pid = gateway.child.process.pid!;
  const check = rider(upstreams, perUpstream);
  const legacy = await legacyPair(gateway.url, check, DECLARATION);
  const legacyPing: RawPost = { body: legacy.rider.body.replace('"method":"tools/list"', '"method":"ping"'), headers: legacy.rider.headers };
  const posts: Record<Way, RawPost> = { 'list-2026': modernPost('tools/list', check), 'list-2025': legacy.rider, 'ping-2025': legacyPing };
  const target = rawTarget(gateway.url);
  const modernPing = await rawToolsList(target, modernPost('ping', check)).then(
    () => 'answered',
    (error: unknown) => (error instanceof Error ? error.message.replace(/^\S+: /, '') : String(error)),
  );
  const ms: Record<Way, number[]> = { 'list-2026': [], 'list-2025': [], 'ping-2025': [] };
  const cpu: Record<Way, number> = { 'list-2026': 0, 'list-2025': 0, 'ping-2025': 0 };
  const bytes: Partial<Record<Way, number>> = {};
  const verdicts: Partial<Record<Way, string>> = {};
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    for (let i = 0; i < WAYS.length; i++) {
      const way = WAYS[(i + round) % WAYS.length]!;
      const before = processCpuMs(pid);
      const answer = await rawToolsList(target, posts[way]);
      if (round < WARMUP) continue;
      cpu[way] += processCpuMs(pid) - before;
      ms[way].push(answer.ms);
      if (bytes[way] === undefined) {
        bytes[way] = answer.bytes + Buffer.byteLength(posts[way].body);
        verdicts[way] = (jsonRpcResult(answer.body)['_meta'] as Record<string, { verdict: string }>)[EXTENSION_ID]!.verdict;
      }
    }
  }
  target.agent.destroy();
  await cleanUp();
  if (new Set(Object.values(verdicts)).size !== 1) throw new Error(`${upstreams * perUpstream} tools: the carriers disagree: ${JSON.stringify(verdicts)}`);
  const tools = upstreams * perUpstream + 1;
  const list = medianAndSpread(ms['list-2025']).median;
  const ping = medianAndSpread(ms['ping-2025']).median;
  reportTarget({
    id: `decision-0001-ping-2025-${tools}`,
    measure: `one Shape A check (10 IDs) on ping vs on tools/list, ${tools} tools, 2025-11-25 session, same run`,
    figure: `${(ping / list).toFixed(2)}x (${ping.toFixed(2)} ms vs ${list.toFixed(2)} ms median; ${bytes['ping-2025']} vs ${bytes['list-2025']} bytes)`,
    target: 'informational (decision record 0001)',
    met: true,
  });
  return [`${String(tools).padStart(5)} tools  ping-2026  ${modernPing}`, ...WAYS.map(
    (way) => `${String(tools).padStart(5)} tools  ${way.padEnd(9)}  ${medianAndSpread(ms[way]).text}  ${String(bytes[way]).padStart(8)} bytes  gateway CPU ${(cpu[way] / ROUNDS).toFixed(2)} ms/check  verdict ${verdicts[way]}`,
  )];
}

async function main(): Promise<void> {
  const start = loadavg().map((x) => x.toFixed(2)).join(' ');
  const rows: string[] = [];
  for (const size of SIZES) rows.push(...(await measureSize(size.upstreams, size.perUpstream)));
  process.stdout.write(`load average at start: ${start}; at end: ${loadavg().map((x) => x.toFixed(2)).join(' ')}; ${ROUNDS} rounds after ${WARMUP} warm-up per size, alternating\n${rows.join('\n')}\n`);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(async () => {
    clearTimeout(watchdog);
    await cleanUp();
    rmSync(work, { recursive: true, force: true });
  });
