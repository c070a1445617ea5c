// The listing per revision, as an SDK client sees it: the gateway over 10 fixture upstreams x 100
// tools, and per revision
//  - the SDK client's listTools() (cache bypassed), split into the HTTP exchange (the POST until its
//    body is read whole, timed inside the transport's fetch) and the client's own work after it
//    (JSON parsing, result validation, paging);
//  - the raw POST (node:http, body read whole, not parsed): the gateway's own cost plus transfer.
// Target: the exchange of a 2026-07-28 listing takes at most 1.05x that of a 2025-11-25 one (the
// rider benchmark measures the same on raw POSTs).
// Usage (after a build): `BENCH_ROUNDS=200 npx tsx bench/listing-eras.ts`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { reportTarget } from './bench-target.js';
import { startCatalogueGateway, type CatalogueGateway } from './catalogue-gateway.js';
import { formatMs, summarise } from './latency-stats.js';
import { rawTarget, rawToolsList, type RawPost, type RawTarget } from './raw-tools-list.js';
import { legacyPair } from './rider-posts.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const WARMUP = 30;
const TOOLS = 1001; // 10 x 100 and describe_tool

type Era = '2025-11-25' | '2026-07-28';
const ERAS: readonly Era[] = ['2025-11-25', '2026-07-28'];

interface SdkSide {
  readonly client: Client;
  /** Milliseconds of the last POST's HTTP exchange, measured inside the transport's fetch. */
  exchangeMs: number;
}

async function sdkSide(url: string, era: Era): Promise<SdkSide> {
  const side = { exchangeMs: 0 } as { client: Client; exchangeMs: number };
  const timedFetch: typeof fetch = async (input, init) => {
    const started = performance.now();
    const response = await fetch(input, init);
    if (init?.method !== 'POST' || response.headers.get('content-type') !== 'application/json') return response;
    const body = await response.arrayBuffer();
    side.exchangeMs = performance.now() - started;
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  side.client = new Client({ name: 'listing-eras', version: '1.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {});
  await side.client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: timedFetch }));
  return side;
}

const work = mkdtempSync(join(tmpdir(), 'mcpproxy-eras-'));
let gateway: CatalogueGateway | undefined;

async function cleanUp(): Promise<void> {
  await gateway?.child.stop();
  rmSync(work, { recursive: true, force: true });
}

async function main(): Promise<void> {
  gateway = await startCatalogueGateway(work, { upstreams: 10, perUpstream: 100 });
  const url = gateway.url;

  const sdk = { '2025-11-25': await sdkSide(url, '2025-11-25'), '2026-07-28': await sdkSide(url, '2026-07-28') };
  const raw: Record<Era, { target: RawTarget; post?: RawPost }> = {
    '2025-11-25': { target: rawTarget(url), post: (await legacyPair(url, {})).plain },
    '2026-07-28': { target: rawTarget(url) },
  };
  type Row = { total: number[]; exchange: number[]; raw: number[] };
  const rows: Record<Era, Row> = { '2025-11-25': { total: [], exchange: [], raw: [] }, '2026-07-28': { total: [], exchange: [], raw: [] } };
  for (let round = -WARMUP; round < ROUNDS; round++) {
    for (let j = 0; j < ERAS.length; j++) {
      const era = ERAS[(round + WARMUP + j) % ERAS.length]!;
      const started = performance.now();
      const listed = await sdk[era].client.listTools(undefined, { cacheMode: 'bypass' });
      const total = performance.now() - started;
      if (listed.tools.length !== TOOLS) throw new Error(`${era}: listed ${listed.tools.length} tools`);
      const { ms } = await rawToolsList(raw[era].target, raw[era].post);
      if (round < 0) continue;
      rows[era].total.push(total);
      rows[era].exchange.push(sdk[era].exchangeMs);
      rows[era].raw.push(ms);
    }
  }
  console.log(`# listing per revision (node ${process.version}, ${ROUNDS} rounds, ${TOOLS} tools)`);
  console.log('| revision | SDK listTools median / p99 | its HTTP exchange median | client work after the body, median | raw POST median / p99 |');
  console.log('|---|---|---|---|---|');
  for (const era of ERAS) {
    const r = rows[era];
    const total = summarise(r.total);
    const after = summarise(r.total.map((ms, i) => ms - r.exchange[i]!));
    const rawStats = summarise(r.raw);
    console.log(
      `| ${era} | ${formatMs(total.median)} / ${formatMs(total.p99)} | ${formatMs(summarise(r.exchange).median)} | ${formatMs(after.median)} | ${formatMs(rawStats.median)} / ${formatMs(rawStats.p99)} |`,
    );
  }
  const exchange = { legacy: summarise(rows['2025-11-25'].exchange), modern: summarise(rows['2026-07-28'].exchange) };
  const total = { legacy: summarise(rows['2025-11-25'].total), modern: summarise(rows['2026-07-28'].total) };
  reportTarget({
    id: 'listing-2026-vs-2025-exchange',
    measure: `SDK client listTools() (cache bypassed) over ${TOOLS} tools, its HTTP exchange (POST until the body is read), 2026-07-28 vs 2025-11-25, same gateway, ${ROUNDS} alternating rounds`,
    figure:
      `${(exchange.modern.median / exchange.legacy.median).toFixed(2)}x (${formatMs(exchange.modern.median)} vs ${formatMs(exchange.legacy.median)} median; ` +
      `whole listTools() ${formatMs(total.modern.median)} vs ${formatMs(total.legacy.median)})`,
    target: '<= 1.05x',
    met: exchange.modern.median <= 1.05 * exchange.legacy.median,
  });
  await Promise.all(ERAS.map((era) => sdk[era].client.close()));
  for (const era of ERAS) raw[era].target.agent.destroy();
}

const watchdog = setTimeout(() => {
  process.stderr.write('listing-eras: watchdog: giving up after 10 minutes\n');
  void cleanUp().then(() => process.exit(2));
}, 10 * 60_000);
main()
  .then(cleanUp, async (error: unknown) => {
    await cleanUp();
    process.stderr.write(`listing-eras: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
