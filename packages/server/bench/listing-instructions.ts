// Instructions per request, a repeatable second opinion on the listing and rider benchmarks
// (`npx tsx bench/listing-instructions.ts` in packages/server, after a build; needs valgrind).
// The gateway of the rider benchmark (10 stdio upstreams x 100 tools, one page) runs under
// callgrind with collection off while it starts and warms up; then, per variant, the counters are
// zeroed, BENCH_REQUESTS requests are sent one after another, and the instructions the gateway
// process executed are dumped: its own work per request (the upstreams are other processes),
// unaffected by what else runs on the machine. Garbage collection and compiling are reported apart
// from the rest: whether a major collection falls into a pass of 150 requests swings the total by
// half, while the rest repeats within a few per cent. Variants: tools/list without a rider, with the
// same 50-ID rider every time, and (2025-11-25) with a new rider every time, on a 2025-11-25 session
// and on 2026-07-28; GET /healthz as the floor of any exchange. Each variant is measured
// BENCH_PASSES times, in turn. Not part of `pnpm bench` (valgrind runs the gateway ~50x slower; a
// run takes about an hour on a loaded machine); its figures go with the wall-clock ones.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCatalogueGateway, type CatalogueGateway } from './catalogue-gateway.js';
import { distinctRiders, fiftyIdRider } from './fifty-id-rider.js';
import { rawTarget, rawToolsList, type RawPost, type RawTarget } from './raw-tools-list.js';
import { legacyPair, legacyRiderPost, modernPair } from './rider-posts.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const PASSES = Number(process.env.BENCH_PASSES ?? 2);
const WARMUP = 60;
const UPSTREAMS = 10;

const work = mkdtempSync(join(tmpdir(), 'mcpproxy-instructions-'));
let gateway: CatalogueGateway | undefined;
const agents = new Set<RawTarget>();
const watchdog = setTimeout(() => {
  process.stderr.write('listing-instructions: watchdog: giving up after 120 minutes\n');
  void cleanUp().then(() => process.exit(2));
}, 120 * 60_000);

async function cleanUp(): Promise<void> {
  for (const target of agents) target.agent.destroy();
  await gateway?.child.stop();
  rmSync(work, { recursive: true, force: true });
}

type Variant = '2025 plain' | '2025 rider' | '2025 new rider' | '2026 plain' | '2026 rider' | 'healthz';

function callgrind(pid: number, ...args: string[]): void {
  execFileSync('callgrind_control', [...args, String(pid)], { stdio: 'ignore', timeout: 120_000 });
}

/**
 * Instructions (Ir) of the callgrind dump whose description is `label`: in all, and split into
 * garbage collection (V8's heap, marking, sweeping, scavenging; its helper threads count too), compiling
 * (V8's optimizing compilers and parser), and the rest: the gateway's own work, which does not
 * depend on when a collection or a compile happens to fall into a pass, so it repeats from pass to pass.
 */
interface Instructions {
  readonly total: number;
  readonly gc: number;
  readonly jit: number;
  readonly rest: number;
}

const GC_FUNCTION = /v8::internal::\S*(Heap|Mark|Sweep|Scaveng|Evacuat|Compact|RememberedSet|SlotSet|MemoryChunk|GCTracer|FreeList|BodyDescriptor)|heap::base::|cppgc::|__popcount/;
const JIT_FUNCTION = /v8::internal::(compiler::|maglev::|baseline::|interpreter::|Compiler::|OptimizingCompile|Parser|Scanner|PreParser)/;

function dumpedInstructions(label: string): Instructions {
  for (const name of readdirSync(work).filter((n) => n.startsWith('callgrind.out')).sort().reverse()) {
    const file = join(work, name);
    if (!readFileSync(file, 'utf8').includes(`\ndesc: Trigger: dump ${label}\n`)) continue;
    const annotated = execFileSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    let total = 0;
    let gc = 0;
    let jit = 0;
    for (const line of annotated.split('\n')) {
      const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
      if (match === null) continue;
      const count = Number(match[1]!.replace(/,/g, ''));
      if (match[2]!.startsWith('PROGRAM TOTALS')) total = count;
      else if (GC_FUNCTION.test(match[2]!)) gc += count;
      else if (JIT_FUNCTION.test(match[2]!)) jit += count;
    }
    return { total, gc, jit, rest: total - gc - jit };
  }
  throw new Error(`no callgrind dump for ${label}`);
}

/** GET /healthz on the target's keep-alive connection, body read whole. */
function healthz(target: RawTarget): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/healthz', target.url), { agent: target.agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`healthz: HTTP ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  gateway = await startCatalogueGateway(work, {
    upstreams: UPSTREAMS,
    perUpstream: 100,
    launcher: ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(work, 'callgrind.out.%p')}`],
    startMs: 15 * 60_000,
  });
  const pid = gateway.child.process.pid!;
  const rider = fiftyIdRider(UPSTREAMS);
  const legacy = await legacyPair(gateway.url, rider);
  const modern = modernPair(rider);
  // A different rider each time (more than the gateway's evaluation memo keeps): a rider's whole cost.
  const fresh = distinctRiders(UPSTREAMS, 1024).map((r) => legacyRiderPost(r, legacy.plain.headers));
  let turn = 0;
  const posts: Record<Exclude<Variant, 'healthz'>, () => RawPost> = {
    '2025 plain': () => legacy.plain,
    '2025 rider': () => legacy.rider,
    '2025 new rider': () => fresh[turn++ % fresh.length]!,
    '2026 plain': () => modern.plain,
    '2026 rider': () => modern.rider,
  };
  const variants: Variant[] = ['2025 plain', '2025 rider', '2025 new rider', '2026 plain', '2026 rider', 'healthz'];
  const url = gateway.url;
  const connect = (): RawTarget => {
    const target = rawTarget(url);
    agents.add(target);
    return target;
  };
  const targets = Object.fromEntries(variants.map((v) => [v, connect()])) as Record<Variant, RawTarget>;
  const once = (v: Variant) => (v === 'healthz' ? healthz(targets[v]) : rawToolsList(targets[v], posts[v]()).then(() => undefined));
  // Under valgrind a connection can idle past the server's keep-alive timeout between two of its
  // requests; a request that meets the closing socket never reached the gateway, so it is sent again
  // on a new connection (at most twice). Anything else, or a third failure, ends the run saying where.
  const send = async (v: Variant, where: string): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(v);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const reset = code === 'ECONNRESET' || code === 'EPIPE' || (error as Error).message === 'socket hang up';
        if (!reset || attempt === 3) throw new Error(`${v}, ${where}, attempt ${attempt}: ${(error as Error).message}`, { cause: error });
        targets[v].agent.destroy();
        targets[v] = connect();
      }
    }
  };
  for (let i = 0; i < WARMUP; i++) for (const v of variants) await send(v, `warm-up ${i}`);
  callgrind(pid, '--instr=on');
  const perRequest = Object.fromEntries(variants.map((v) => [v, []])) as unknown as Record<Variant, Instructions[]>;
  for (let pass = 0; pass < PASSES; pass++) {
    for (const v of variants) {
      // A fresh keep-alive connection, opened before counting: the last one idled past the server's
      // keep-alive timeout while the other variants ran (valgrind makes every request slow).
      targets[v].agent.destroy();
      targets[v] = connect();
      await send(v, `pass ${pass}, first request`);
      callgrind(pid, '--zero');
      for (let i = 0; i < REQUESTS; i++) await send(v, `pass ${pass}, request ${i}`);
      const label = `${v} pass ${pass}`.replace(/ /g, '_');
      callgrind(pid, `--dump=${label}`);
      const counted = dumpedInstructions(label);
      perRequest[v].push({ total: counted.total / REQUESTS, gc: counted.gc / REQUESTS, jit: counted.jit / REQUESTS, rest: counted.rest / REQUESTS });
    }
  }
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const m = (v: Variant, part: keyof Instructions) => mean(perRequest[v].map((x) => x[part]));
  const mega = (n: number) => `${(n / 1e6).toFixed(2)} M`;
  console.log(`# gateway instructions per request (callgrind, ${REQUESTS} requests x ${PASSES} passes per variant, node ${process.version})`);
  console.log('| variant | own work (mean) | own work per pass | garbage collection | compiling | in all |');
  console.log('|---|---|---|---|---|---|');
  for (const v of variants) {
    console.log(`| ${v} | ${mega(m(v, 'rest'))} | ${perRequest[v].map((x) => mega(x.rest)).join(' / ')} | ${mega(m(v, 'gc'))} | ${mega(m(v, 'jit'))} | ${mega(m(v, 'total'))} |`);
  }
  const ratio = (a: Variant, b: Variant) => (m(a, 'rest') / m(b, 'rest')).toFixed(2);
  console.log(
    `\n- own work: 2025 rider / plain ${ratio('2025 rider', '2025 plain')}x, a new rider each time ${ratio('2025 new rider', '2025 plain')}x; ` +
      `2026 rider / plain ${ratio('2026 rider', '2026 plain')}x; 2026 plain / 2025 plain ${ratio('2026 plain', '2025 plain')}x`,
  );
}

main()
  .then(cleanUp, async (error: unknown) => {
    const child = gateway?.child.process;
    const gatewayState = child === undefined ? '' : `\nthe gateway: exit code ${child.exitCode}, signal ${child.signalCode}; its output ends:\n${gateway!.child.outputTail()}`;
    await cleanUp();
    process.stderr.write(`listing-instructions: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}${gatewayState}\n`);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
