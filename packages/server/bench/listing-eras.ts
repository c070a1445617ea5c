// A focused bench for iterating on the listing path (not the recorded figures; those come from run.ts):
// the gateway over 10 fixture upstreams x 100 tools, and per revision
//  - the SDK client's listTools() (cache bypassed), split into the HTTP exchange (the POST until its
//    body is read whole, timed inside the transport's fetch) and the client's own work after it
//    (JSON parsing, result validation, paging);
//  - the raw POST (node:http, body read whole, not parsed): the gateway's own cost plus transfer.
// Usage (after a build): `BENCH_ROUNDS=200 npx tsx bench/listing-eras.ts`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ChildHandle } from './child-process-handle.js';
import { formatMs, summarise } from './latency-stats.js';
import { countTools, rawTarget, rawToolsList, type RawPost, type RawTarget } from './raw-tools-list.js';
import { legacyPair } from './rider-posts.js';
import { catalogue } from './tool-catalogue.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = join(PACKAGE_DIR, 'dist', 'fixture-upstream', 'main.js');
const SERVE = join(PACKAGE_DIR, 'dist', 'bin', 'serve.js');
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
let gateway: ChildHandle | undefined;

async function cleanUp(): Promise<void> {
  await gateway?.stop();
  rmSync(work, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const servers = Array.from({ length: 10 }, (_, i) => {
    const file = join(work, `up${i}.tools.json`);
    writeFileSync(file, JSON.stringify(catalogue(`t${i}`, 100)));
    return { name: `up${i}`, command: process.execPath, args: [FIXTURE, '--tools', file, '--name', `up${i}`], quarantined: false };
  });
  const config = join(work, 'gateway.json');
  writeFileSync(config, JSON.stringify({ listen: '127.0.0.1:0', data_dir: join(work, 'data'), api_key: 'bench-admin-key-0123456789', tool_quarantine: false, page_size: 10_000, servers }));
  gateway = new ChildHandle(process.execPath, [SERVE, '--config', config]);
  const url = (await gateway.waitFor(/serving MCP at (\S+)/, 30_000))[1]!;
  const probe = rawTarget(url);
  const deadline = Date.now() + 120_000;
  while (countTools((await rawToolsList(probe)).body) < TOOLS) {
    if (Date.now() > deadline) throw new Error('the gateway did not serve the tools within 120 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  probe.agent.destroy();

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
