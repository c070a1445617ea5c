// The rider benchmark (`npx tsx bench/rider-run.ts` in packages/server; needs a built dist):
// tools/list over 1,000 aggregated tools (10 fixture upstreams x 100) with a 50-ID rider against the
// same call without one, on both revisions, raw HTTP, in one run. Both POSTs of a pair declare the
// extension; only the rider differs. Rounds rotate the four variants so none always runs warmer.
// Targets: the rider adds at most 20 % to the median and at most 1 ms to the p99.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChildHandle } from './child-process-handle.js';
import { formatMs, summarise, type LatencySummary } from './latency-stats.js';
import { rawTarget, rawToolsList, type RawPost, type RawTarget } from './raw-tools-list.js';
import { inspect, legacyPair, modernPair, type RiderPair } from './rider-posts.js';
import { catalogue } from './tool-catalogue.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = join(PACKAGE_DIR, 'dist', 'fixture-upstream', 'main.js');
const SERVE = join(PACKAGE_DIR, 'dist', 'bin', 'serve.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 500);
const WARMUP = 50;
const UPSTREAMS = 10;
const PER_UPSTREAM = 100;

const work = mkdtempSync(join(tmpdir(), 'mcpproxy-rider-bench-'));
let gateway: ChildHandle | undefined;
const watchdog = setTimeout(() => {
  process.stderr.write('rider bench: watchdog: giving up after 10 minutes\n');
  void cleanUp().then(() => process.exit(2));
}, 10 * 60_000);

async function cleanUp(): Promise<void> {
  await gateway?.stop();
  rmSync(work, { recursive: true, force: true });
}

/**
 * 50 IDs as an agent would send them: 5 served tools per upstream, under read_only_only (a third of
 * the catalogue is not read-only, so the facet mixes ready and policy_filtered with their wording).
 * RIDER_TYPOS=N turns N of them into near-miss typos (not_found with did_you_mean, the costliest path).
 */
function fiftyIdRider(): unknown {
  const ids = Array.from({ length: UPSTREAMS }, (_, s) => Array.from({ length: 5 }, (_, k) => `up${s}:t${s}_${String(k * 17 + s).padStart(4, '0')}`)).flat();
  const typos = Number(process.env.RIDER_TYPOS ?? 0);
  for (let i = 0; i < typos && i < ids.length; i++) ids[i * 7] = `${ids[i * 7]!.slice(0, -1)}`;
  return { tools: ids.map((id) => ({ id })), policy: { read_only_only: true } };
}

async function startServe(): Promise<string> {
  const servers = Array.from({ length: UPSTREAMS }, (_, i) => {
    const file = join(work, `up${i}.tools.json`);
    writeFileSync(file, JSON.stringify(catalogue(`t${i}`, PER_UPSTREAM)));
    return { name: `up${i}`, command: process.execPath, args: [FIXTURE, '--tools', file, '--name', `up${i}`], quarantined: false };
  });
  const config = join(work, 'gateway.json');
  writeFileSync(config, JSON.stringify({ listen: '127.0.0.1:0', data_dir: join(work, 'data'), api_key: 'rider-bench-admin-key-0123', tool_quarantine: false, page_size: 10_000, servers }));
  gateway = new ChildHandle(process.execPath, [SERVE, '--config', config]);
  return (await gateway.waitFor(/serving MCP at (\S+)/, 30_000))[1]!;
}

async function untilServed(target: RawTarget, post: RawPost, tools: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (inspect((await rawToolsList(target, post)).body).tools < tools) {
    if (Date.now() > deadline) throw new Error(`the gateway did not serve ${tools} tools within 120 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

type Variant = 'modern plain' | 'modern rider' | 'legacy plain' | 'legacy rider';

async function main(): Promise<void> {
  console.log(`# rider benchmark (node ${process.version}, ${ROUNDS} rounds)`);
  const url = await startServe();
  const rider = fiftyIdRider();
  const pairs: Record<'modern' | 'legacy', RiderPair> = { modern: modernPair(rider), legacy: await legacyPair(url, rider) };
  const posts: Record<Variant, RawPost> = {
    'modern plain': pairs.modern.plain,
    'modern rider': pairs.modern.rider,
    'legacy plain': pairs.legacy.plain,
    'legacy rider': pairs.legacy.rider,
  };
  const variants = Object.keys(posts) as Variant[];
  // One keep-alive connection per variant, so no variant waits on another's socket.
  const targets = Object.fromEntries(variants.map((v) => [v, rawTarget(url)])) as Record<Variant, RawTarget>;
  await untilServed(targets['modern plain'], posts['modern plain'], UPSTREAMS * PER_UPSTREAM + 1);
  for (const v of variants) {
    const seen = inspect((await rawToolsList(targets[v], posts[v])).body);
    console.log(`  ${v}: ${seen.tools} tools listed${seen.facetTools === undefined ? ', no facet' : `, facet with ${seen.facetTools} results, verdict ${seen.verdict}`}`);
    if (seen.tools !== UPSTREAMS * PER_UPSTREAM + 1 || (v.endsWith('rider') ? seen.facetTools !== 50 : seen.facetTools !== undefined)) {
      throw new Error(`${v} did not answer as expected: ${JSON.stringify(seen)}`);
    }
  }
  for (let i = 0; i < WARMUP; i++) for (const v of variants) await rawToolsList(targets[v], posts[v]);
  const samples = Object.fromEntries(variants.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < variants.length; j++) {
      const v = variants[(round + j) % variants.length]!;
      samples[v].push((await rawToolsList(targets[v], posts[v])).ms);
    }
  }
  for (const v of variants) targets[v].agent.destroy();

  const s = Object.fromEntries(variants.map((v) => [v, summarise(samples[v])])) as Record<Variant, LatencySummary>;
  console.log(`\n| revision | without rider: median / p99 | with 50-ID rider: median / p99 | median added | p99 added | paired median added |`);
  console.log(`|---|---|---|---|---|---|`);
  for (const era of ['legacy', 'modern'] as const) {
    const plain = s[`${era} plain`];
    const withRider = s[`${era} rider`];
    // Round by round, rider minus plain: the rider's own cost with the machine's drift cancelled.
    const paired = summarise(samples[`${era} rider`].map((ms, i) => ms - samples[`${era} plain`][i]!));
    const label = era === 'legacy' ? '2025-11-25 (session)' : '2026-07-28 (stateless)';
    const added = ((withRider.median / plain.median - 1) * 100).toFixed(1);
    console.log(
      `| ${label} | ${formatMs(plain.median)} / ${formatMs(plain.p99)} | ${formatMs(withRider.median)} / ${formatMs(withRider.p99)} | ${added} % | ${formatMs(withRider.p99 - plain.p99)} | ${formatMs(paired.median)} |`,
    );
  }
}

main()
  .then(cleanUp, async (error: unknown) => {
    await cleanUp();
    process.stderr.write(`rider bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
