// The rider benchmark (`npx tsx bench/rider-run.ts` in packages/server; needs a built dist):
// tools/list over 1,000 aggregated tools (10 fixture upstreams x 100) with a 50-ID rider against the
// same call without one, on both revisions, raw HTTP, in one run. Both POSTs of a pair declare the
// extension; only the rider differs. Rounds rotate the variants so none always runs warmer. The
// rider is the same in every round, as an agent harness sends its tool set before every job (the
// gateway's evaluation memo then reuses its evaluation); two more variants send a different rider
// each time (1,024 in turn, more than the memo keeps), the cost of a rider nobody sent before.
// Targets: on a 2025-11-25 session the rider costs at most 1.2x and at most +1 ms on the median; on
// 2026-07-28 at most 1.2x; and the plain 2026-07-28 listing is at most 1.05x of the 2025-11-25 one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reportTarget } from './bench-target.js';
import { startCatalogueGateway, type CatalogueGateway } from './catalogue-gateway.js';
import { distinctRiders, fiftyIdRider } from './fifty-id-rider.js';
import { formatMs, summarise, type LatencySummary } from './latency-stats.js';
import { rawTarget, rawToolsList, type RawPost, type RawTarget } from './raw-tools-list.js';
import { inspect, legacyPair, legacyRiderPost, modernPair, type RiderPair } from './rider-posts.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 500);
const WARMUP = 50;
const UPSTREAMS = 10;
const PER_UPSTREAM = 100;
const TYPOS = Number(process.env.RIDER_TYPOS ?? 0);

const work = mkdtempSync(join(tmpdir(), 'mcpproxy-rider-bench-'));
let gateway: CatalogueGateway | undefined;
const watchdog = setTimeout(() => {
  process.stderr.write('rider bench: watchdog: giving up after 10 minutes\n');
  void cleanUp().then(() => process.exit(2));
}, 10 * 60_000);

async function cleanUp(): Promise<void> {
  await gateway?.child.stop();
  rmSync(work, { recursive: true, force: true });
}

type Variant = 'modern plain' | 'modern rider' | 'legacy plain' | 'legacy rider' | 'modern new rider' | 'legacy new rider';

async function main(): Promise<void> {
  console.log(`# rider benchmark (node ${process.version}, ${ROUNDS} rounds${TYPOS > 0 ? `, ${TYPOS} typo IDs` : ''})`);
  gateway = await startCatalogueGateway(work, { upstreams: UPSTREAMS, perUpstream: PER_UPSTREAM });
  const { url, tools } = gateway;
  const rider = fiftyIdRider(UPSTREAMS, TYPOS);
  const pairs: Record<'modern' | 'legacy', RiderPair> = { modern: modernPair(rider), legacy: await legacyPair(url, rider) };
  // A different rider on each request: the same session and envelope, another rider in turn.
  const session = pairs.legacy.plain.headers;
  const fresh = { modern: distinctRiders(UPSTREAMS, 1024).map((r) => modernPair(r).rider), legacy: distinctRiders(UPSTREAMS, 1024).map((r) => legacyRiderPost(r, session)) };
  let turn = 0;
  const posts: Record<Variant, () => RawPost> = {
    'modern plain': () => pairs.modern.plain,
    'modern rider': () => pairs.modern.rider,
    'legacy plain': () => pairs.legacy.plain,
    'legacy rider': () => pairs.legacy.rider,
    'modern new rider': () => fresh.modern[turn++ % fresh.modern.length]!,
    'legacy new rider': () => fresh.legacy[turn++ % fresh.legacy.length]!,
  };
  const variants = Object.keys(posts) as Variant[];
  // One keep-alive connection per variant, so no variant waits on another's socket.
  const targets = Object.fromEntries(variants.map((v) => [v, rawTarget(url)])) as Record<Variant, RawTarget>;
  for (const v of variants) {
    const seen = inspect((await rawToolsList(targets[v], posts[v]())).body);
    console.log(`  ${v}: ${seen.tools} tools listed${seen.facetTools === undefined ? ', no facet' : `, facet with ${seen.facetTools} results, verdict ${seen.verdict}`}`);
    if (seen.tools !== tools || (v.endsWith('rider') ? seen.facetTools !== 50 : seen.facetTools !== undefined)) {
      throw new Error(`${v} did not answer as expected: ${JSON.stringify(seen)}`);
    }
  }
  for (let i = 0; i < WARMUP; i++) for (const v of variants) await rawToolsList(targets[v], posts[v]());
  const samples = Object.fromEntries(variants.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < variants.length; j++) {
      const v = variants[(round + j) % variants.length]!;
      samples[v].push((await rawToolsList(targets[v], posts[v]())).ms);
    }
  }
  for (const v of variants) targets[v].agent.destroy();

  const s = Object.fromEntries(variants.map((v) => [v, summarise(samples[v])])) as Record<Variant, LatencySummary>;
  // Round by round, rider minus plain: the rider's own cost with the machine's drift cancelled.
  const paired = (era: 'legacy' | 'modern', kind: 'rider' | 'new rider' = 'rider') => summarise(samples[`${era} ${kind}`].map((ms, i) => ms - samples[`${era} plain`][i]!)).median;
  console.log(`\n| revision | rider | without rider: median / p99 | with 50-ID rider: median / p99 | median added | p99 added | paired median added |`);
  console.log(`|---|---|---|---|---|---|---|`);
  for (const era of ['legacy', 'modern'] as const) {
    for (const kind of ['rider', 'new rider'] as const) {
      const plain = s[`${era} plain`];
      const withRider = s[`${era} ${kind}`];
      const label = era === 'legacy' ? '2025-11-25 (session)' : '2026-07-28 (stateless)';
      const added = ((withRider.median / plain.median - 1) * 100).toFixed(1);
      console.log(
        `| ${label} | ${kind === 'rider' ? 'the same each time' : 'a new one each time'} | ${formatMs(plain.median)} / ${formatMs(plain.p99)} | ${formatMs(withRider.median)} / ${formatMs(withRider.p99)} | ${added} % | ${formatMs(withRider.p99 - plain.p99)} | ${formatMs(paired(era, kind))} |`,
      );
    }
  }
  console.log('');

  const setup = `tools/list over 1,001 tools (10 stdio upstreams x 100 + describe_tool, one page), raw HTTP, ${ROUNDS} rotating rounds`;
  const riderSetup = `${setup}, the same rider of ${50 - TYPOS} served IDs${TYPOS > 0 ? ` + ${TYPOS} typos` : ''} under read_only_only in every round vs no rider`;
  const versus = (a: LatencySummary, b: LatencySummary) => `${(a.median / b.median).toFixed(2)}x (${formatMs(a.median)} vs ${formatMs(b.median)} median`;
  const legacy = { plain: s['legacy plain'], rider: s['legacy rider'], fresh: s['legacy new rider'] };
  const modern = { plain: s['modern plain'], rider: s['modern rider'], fresh: s['modern new rider'] };
  // Beside each figure: a rider the gateway has not evaluated before, against the same plain listing.
  const unseen = (x: { plain: LatencySummary; fresh: LatencySummary }) => `; a new rider each time: ${(x.fresh.median / x.plain.median).toFixed(2)}x (${formatMs(x.fresh.median)})`;
  const legacyAdded = legacy.rider.median - legacy.plain.median;
  // A rider can come out cheaper than none on a noisy machine: the sign is part of the figure.
  const signed = (ms: number) => `${ms < 0 ? '-' : '+'}${formatMs(Math.abs(ms))}`;
  reportTarget({
    id: TYPOS > 0 ? `rider-2025-typos-${TYPOS}` : 'rider-2025',
    measure: `rider on a 2025-11-25 session: ${riderSetup}`,
    figure: `${versus(legacy.rider, legacy.plain)}, ${signed(legacyAdded)}; paired ${signed(paired('legacy'))}${unseen(legacy)})`,
    target: '<= 1.2x and <= +1 ms',
    met: legacy.rider.median <= 1.2 * legacy.plain.median && legacyAdded <= 1,
  });
  reportTarget({
    id: TYPOS > 0 ? `rider-2026-typos-${TYPOS}` : 'rider-2026',
    measure: `rider on 2026-07-28 (stateless): ${riderSetup}`,
    figure: `${versus(modern.rider, modern.plain)}; paired ${signed(paired('modern'))}${unseen(modern)})`,
    target: '<= 1.2x',
    met: modern.rider.median <= 1.2 * modern.plain.median,
  });
  if (TYPOS === 0) {
    reportTarget({
      id: 'listing-2026-vs-2025',
      measure: `plain listing, 2026-07-28 (stateless) vs 2025-11-25 (session), same gateway, same run: ${setup}`,
      figure: `${versus(modern.plain, legacy.plain)}; p99 ${formatMs(modern.plain.p99)} vs ${formatMs(legacy.plain.p99)})`,
      target: '<= 1.05x',
      met: modern.plain.median <= 1.05 * legacy.plain.median,
    });
  }
}

main()
  .then(cleanUp, async (error: unknown) => {
    await cleanUp();
    process.stderr.write(`rider bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
