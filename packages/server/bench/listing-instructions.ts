// Instructions per request, a repeatable second opinion on the listing and rider benchmarks
// (`npx tsx bench/listing-instructions.ts` in packages/server, after a build; needs valgrind).
// The gateway of the rider benchmark (10 stdio upstreams x 100 tools, one page) runs under
// callgrind with collection off while it starts and warms up; then, per variant, the counters are
// zeroed, BENCH_REQUESTS requests are sent one after another, and the instructions the gateway
// process executed are dumped: its own work per request (the upstreams are other processes),
// unaffected by what else runs on the machine. Variants: tools/list with and without the 50-ID rider
// on a 2025-11-25 session and on 2026-07-28, and GET /healthz as the floor of any exchange. Each
// variant is measured BENCH_PASSES times, in turn. Not part of `pnpm bench` (valgrind runs the
// gateway ~50x slower; a run takes several minutes); its figures go with the wall-clock ones.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCatalogueGateway, type CatalogueGateway } from './catalogue-gateway.js';
import { fiftyIdRider } from './fifty-id-rider.js';
import { rawTarget, rawToolsList, type RawPost, type RawTarget } from './raw-tools-list.js';
import { legacyPair, modernPair } from './rider-posts.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const PASSES = Number(process.env.BENCH_PASSES ?? 2);
const WARMUP = 60;
const UPSTREAMS = 10;

const work = mkdtempSync(join(tmpdir(), 'mcpproxy-instructions-'));
let gateway: CatalogueGateway | undefined;
const agents = new Set<RawTarget>();
const watchdog = setTimeout(() => {
  process.stderr.write('listing-instructions: watchdog: giving up after 40 minutes\n');
  void cleanUp().then(() => process.exit(2));
}, 40 * 60_000);

async function cleanUp(): Promise<void> {
  for (const target of agents) target.agent.destroy();
  await gateway?.child.stop();
  rmSync(work, { recursive: true, force: true });
}

type Variant = '2025 plain' | '2025 rider' | '2026 plain' | '2026 rider' | 'healthz';

function callgrind(pid: number, ...args: string[]): void {
  execFileSync('callgrind_control', [...args, String(pid)], { stdio: 'ignore', timeout: 120_000 });
}

/** Total instructions (Ir) of the newest callgrind dump whose description is `label`. */
function dumpedInstructions(label: string): number {
  for (const name of readdirSync(work).filter((n) => n.startsWith('callgrind.out')).sort().reverse()) {
    const text = readFileSync(join(work, name), 'utf8');
    if (!text.includes(`\ndesc: Trigger: dump ${label}\n`)) continue;
    const totals = /^totals: (\d+)/m.exec(text);
    if (totals !== null) return Number(totals[1]);
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
  const posts: Record<Exclude<Variant, 'healthz'>, RawPost> = { '2025 plain': legacy.plain, '2025 rider': legacy.rider, '2026 plain': modern.plain, '2026 rider': modern.rider };
  const variants: Variant[] = ['2025 plain', '2025 rider', '2026 plain', '2026 rider', 'healthz'];
  const url = gateway.url;
  const connect = (): RawTarget => {
    const target = rawTarget(url);
    agents.add(target);
    return target;
  };
  const targets = Object.fromEntries(variants.map((v) => [v, connect()])) as Record<Variant, RawTarget>;
  const once = (v: Variant) => (v === 'healthz' ? healthz(targets[v]) : rawToolsList(targets[v], posts[v]).then(() => undefined));
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
  const perRequest: Record<Variant, number[]> = { '2025 plain': [], '2025 rider': [], '2026 plain': [], '2026 rider': [], healthz: [] };
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
      perRequest[v].push(dumpedInstructions(label) / REQUESTS);
    }
  }
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const m = (v: Variant) => `${(mean(perRequest[v]) / 1e6).toFixed(2)} M`;
  const passes = (v: Variant) => perRequest[v].map((x) => (x / 1e6).toFixed(2)).join(' / ');
  console.log(`# gateway instructions per request (callgrind, ${REQUESTS} requests x ${PASSES} passes per variant, node ${process.version})`);
  console.log('| variant | instructions per request (mean) | per pass |');
  console.log('|---|---|---|');
  for (const v of variants) console.log(`| ${v} | ${m(v)} | ${passes(v)} |`);
  const ratio = (a: Variant, b: Variant) => (mean(perRequest[a]) / mean(perRequest[b])).toFixed(2);
  console.log(`\n- 2025 rider / plain: ${ratio('2025 rider', '2025 plain')}x; 2026 rider / plain: ${ratio('2026 rider', '2026 plain')}x; 2026 plain / 2025 plain: ${ratio('2026 plain', '2025 plain')}x`);
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
