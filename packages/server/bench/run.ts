// The gateway benchmark (`pnpm bench` / `npx nx run @mcpproxy/server:bench`): needs a built dist.
//  1. tools/list over 1,000 aggregated tools (10 fixture upstreams x 100) through the gateway, against
//     the same 1,000 tools from ONE fixture upstream served directly over Streamable HTTP: raw HTTP
//     POSTs, response read whole, no parsing, alternating, same run.
//  2. The same 10 upstreams aggregated by mcp-hub 4.2.1 (installed into a temp dir at bench time)
//     against the gateway, through the same SDK client on both sides (mcp-hub speaks legacy SSE),
//     and the RSS of each process alone once both have served the same rounds, beside the RSS of the
//     MCP SDK 2.x packages alone serving the same tools on both revisions (sdk-floor.ts), the floor under the
//     gateway's as installed.
//  3. The gateway's RSS with 10,000 indexed tools (10 upstreams x 1,000).
// Everything listens on 127.0.0.1; every process is stopped at the end; a watchdog bounds the run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { reportTarget } from './bench-target.js';
import { ChildHandle } from './child-process-handle.js';
import { formatMs, summarise, type LatencySummary } from './latency-stats.js';
import { installMcpHub, mcpHubConfig, MCP_HUB_VERSION } from './mcp-hub.js';
import { countTools, rawTarget, rawToolsList } from './raw-tools-list.js';
import { startSdkFloors } from './sdk-floor.js';
import { catalogue } from './tool-catalogue.js';
import { SMALL_HEAP_V8_FLAGS, START_UP_V8_FLAGS } from '../src/small-heap-policy.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = join(PACKAGE_DIR, 'dist', 'fixture-upstream', 'main.js');
const SERVE = join(PACKAGE_DIR, 'dist', 'bin', 'serve.js');
const FORCE_LOOPBACK = join(PACKAGE_DIR, 'bench', 'force-loopback.mjs');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 500);
const WARMUP = 50;
const UPSTREAMS = 10;

const work = mkdtempSync(join(tmpdir(), 'mcpproxy-bench-'));
const children: ChildHandle[] = [];
const watchdog = setTimeout(() => {
  process.stderr.write('bench: watchdog: giving up after 15 minutes\n');
  void cleanUp().then(() => process.exit(2));
}, 15 * 60_000);

function spawnChild(command: string, args: readonly string[], cwd?: string): ChildHandle {
  const child = new ChildHandle(command, args, cwd === undefined ? {} : { cwd });
  children.push(child);
  return child;
}

async function cleanUp(): Promise<void> {
  await Promise.all(children.map((c) => c.stop()));
  rmSync(work, { recursive: true, force: true });
}

interface Upstream {
  readonly name: string;
  readonly command: string;
  readonly args: string[];
}

/** Every upstream's tools (`up<i>` serves catalogue `t<i>`), as one list: what one process serving them all lists. */
function catalogueTools(perServer: number): unknown[] {
  return Array.from({ length: UPSTREAMS }, (_, i) => catalogue(`t${i}`, perServer)).flat();
}

function upstreams(perServer: number, label: string): Upstream[] {
  return Array.from({ length: UPSTREAMS }, (_, i) => {
    const name = `up${i}`;
    const file = join(work, `${label}-${name}.tools.json`);
    writeFileSync(file, JSON.stringify(catalogue(`t${i}`, perServer)));
    return { name, command: process.execPath, args: [FIXTURE, '--tools', file, '--name', name] };
  });
}

/** Starts the gateway (the package's own serve command) on these upstreams; resolves once all tools are served. */
async function startGateway(label: string, servers: Upstream[], expectedTools: number): Promise<{ child: ChildHandle; url: string }> {
  const config = join(work, `${label}.gateway.json`);
  writeFileSync(
    config,
    JSON.stringify({
      listen: '127.0.0.1:0',
      data_dir: join(work, `${label}-data`),
      api_key: 'bench-admin-key-0123456789',
      tool_quarantine: false,
      page_size: 10_000, // the config's maximum: one response carries the whole 1,000-tool listing, as the direct upstream's does
      servers: servers.map((s) => ({ ...s, quarantined: false })),
    }),
  );
  const child = spawnChild(process.execPath, [SERVE, '--config', config]);
  const url = (await child.waitFor(/serving MCP at (\S+)/, 30_000))[1]!;
  const target = rawTarget(url);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const served = countTools((await rawToolsList(target)).body);
    if (served >= expectedTools) break;
    if (Date.now() > deadline) throw new Error(`gateway served ${served} of ${expectedTools} tools after 120 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  target.agent.destroy();
  return { child, url };
}

async function rawComparison(gatewayUrl: string, directUrl: string): Promise<{ gateway: LatencySummary; direct: LatencySummary; bytes: { gateway: number; direct: number } }> {
  const gateway = rawTarget(gatewayUrl);
  const direct = rawTarget(directUrl);
  const first = { gateway: await rawToolsList(gateway), direct: await rawToolsList(direct) };
  console.log(`  tools per response: gateway ${countTools(first.gateway.body)} (1,000 + describe_tool), direct ${countTools(first.direct.body)}`);
  for (let i = 0; i < WARMUP; i++) {
    await rawToolsList(gateway);
    await rawToolsList(direct);
  }
  const samples = { gateway: [] as number[], direct: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate who goes first, so neither side always runs on a warmer machine.
    const order = round % 2 === 0 ? (['gateway', 'direct'] as const) : (['direct', 'gateway'] as const);
    for (const side of order) samples[side].push((await rawToolsList(side === 'gateway' ? gateway : direct)).ms);
  }
  gateway.agent.destroy();
  direct.agent.destroy();
  return { gateway: summarise(samples.gateway), direct: summarise(samples.direct), bytes: { gateway: first.gateway.bytes, direct: first.direct.bytes } };
}

type ClientKind = 'gateway-2025' | 'gateway-2026' | 'mcp-hub';

async function sdkClient(kind: ClientKind, url: string): Promise<Client> {
  const client = new Client({ name: 'mcpproxy-bench', version: '1.0.0' }, kind === 'gateway-2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  await client.connect(kind === 'mcp-hub' ? new SSEClientTransport(new URL(url)) : new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/**
 * An SDK client connected to mcp-hub. mcp-hub prints that its servers started before its SSE endpoint
 * always answers: a connection made at once was refused with a 500 in one quiet run, which ended the
 * whole benchmark. Connecting is retried for up to 30 s; what is measured afterwards is unchanged.
 */
async function hubClient(url: string): Promise<Client> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      return await sdkClient('mcp-hub', url);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function timedListing(client: Client): Promise<{ ms: number; tools: number }> {
  const started = process.hrtime.bigint();
  const result = await client.listTools(undefined, { cacheMode: 'bypass' });
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, tools: result.tools.length };
}

async function hubComparison(gateway: { readonly child: ChildHandle; readonly url: string }, servers: Upstream[]): Promise<string> {
  const hubDir = mkdtempSync(join(tmpdir(), 'mcpproxy-bench-mcp-hub-'));
  try {
    const installed = await installMcpHub(hubDir);
    if (!installed.ok) return hubNotMeasured(`skipped: ${installed.reason}`);
    const config = join(hubDir, 'hub.json');
    writeFileSync(config, mcpHubConfig(servers));
    const port = 30_000 + Math.floor(Math.random() * 20_000);
    // The gateway sets its V8 flags itself (small-heap-policy.ts); mcp-hub gets the same ones on its command line,
    // the start-up-only one for its whole life (which can only lower its RSS).
    const hub = spawnChild(process.execPath, [...HUB_V8_FLAGS, '--import', FORCE_LOOPBACK, installed.cli, '--port', String(port), '--config', config], hubDir);
    try {
      await hub.waitFor(/servers started successfully|"state":"ready"|HTTP_SERVER_STARTED/, 60_000);
      const hubUrl = `http://127.0.0.1:${port}/mcp`;
      const kinds: readonly ClientKind[] = ['gateway-2025', 'gateway-2026', 'mcp-hub'];
      const clients = {
        'gateway-2025': await sdkClient('gateway-2025', gateway.url),
        'gateway-2026': await sdkClient('gateway-2026', gateway.url),
        'mcp-hub': await hubClient(hubUrl),
      };
      const deadline = Date.now() + 60_000;
      while ((await timedListing(clients['mcp-hub'])).tools < 1000) {
        if (Date.now() > deadline) return hubNotMeasured('skipped: mcp-hub did not list the 1,000 tools within 60 s');
        await new Promise((r) => setTimeout(r, 250));
      }
      const counts = Object.fromEntries(await Promise.all(kinds.map(async (k) => [k, (await timedListing(clients[k])).tools] as const)));
      // The SDK alone serving the same tools (sdk-floor.ts): listed on both revisions in the same rounds,
      // as the gateway is; not timed.
      const floors = await startSdkFloors(hubDir, FIXTURE, catalogueTools(100), HUB_V8_FLAGS, spawnChild);
      const floorClients = await Promise.all(floors.flatMap((floor) => (['gateway-2025', 'gateway-2026'] as const).map((kind) => sdkClient(kind, floor.url))));
      const floorCounts = await Promise.all(floorClients.map(async (client) => (await timedListing(client)).tools));
      const everyone: readonly (() => Promise<unknown>)[] = [...kinds.map((k) => () => timedListing(clients[k])), ...floorClients.map((c) => () => timedListing(c))];
      for (let i = 0; i < WARMUP; i++) for (const list of everyone) await list();
      const samples: Record<ClientKind, number[]> = { 'gateway-2025': [], 'gateway-2026': [], 'mcp-hub': [] };
      const rounds = Math.max(50, Math.floor(ROUNDS / 2));
      for (let round = 0; round < rounds; round++) {
        // Rotate who goes first each round.
        for (let j = 0; j < kinds.length; j++) {
          const kind = kinds[(round + j) % kinds.length]!;
          samples[kind].push((await timedListing(clients[kind])).ms);
        }
        for (const client of floorClients) await timedListing(client);
      }
      await Promise.all([...kinds.map((k) => clients[k].close()), ...floorClients.map((c) => c.close())]);
      // Every process alone (the gateway's and mcp-hub's upstreams are their own children), read once every
      // round has been answered: the gateway and each floor answered two clients' listings for each one of
      // mcp-hub's. All run with the gateway's V8 flags (HUB_V8_FLAGS).
      const rss = { gateway: gateway.child.rssBytes(), hub: hub.rssBytes() };
      const floorRss = floors.map((floor) => floor.child.rssBytes());
      await Promise.all(floors.map((floor) => floor.child.stop()));
      reportTarget({
        id: 'rss-1k-vs-mcp-hub',
        measure: `${RSS_VS_HUB_MEASURE}, after ${rounds} rotating rounds of listings`,
        figure: `${(rss.gateway / rss.hub).toFixed(2)}x (${mibOf(rss.gateway)} vs ${mibOf(rss.hub)})`,
        target: '< 1.00x (below mcp-hub)',
        met: rss.gateway < rss.hub,
      });
      reportTarget({
        id: 'rss-1k-sdk-floor',
        measure: SDK_FLOOR_MEASURE,
        figure: `${floors.map((floor, i) => `${mibOf(floorRss[i]!)} (${floor.label})`).join(', ')}; mcp-hub ${mibOf(rss.hub)}, gateway ${mibOf(rss.gateway)}`,
        target: `${SDK_FLOOR_TARGET} (met: each listed the 1,000 tools on both revisions)`,
        met: floorCounts.every((tools) => tools === 1000),
      });
      const reference = summarise(samples['mcp-hub']);
      for (const [era, kind] of [['2025', 'gateway-2025'], ['2026', 'gateway-2026']] as const) {
        const x = summarise(samples[kind]);
        reportTarget({
          id: `listing-vs-mcp-hub-${era}`,
          measure: `${HUB_MEASURE}, gateway on ${era === '2025' ? '2025-11-25 (session)' : '2026-07-28 (stateless)'}, ${rounds} rotating rounds`,
          figure: `${(x.median / reference.median).toFixed(2)}x (${formatMs(x.median)} vs ${formatMs(reference.median)} median; p99 ${formatMs(x.p99)} vs ${formatMs(reference.p99)})`,
          target: '< 1.00x (faster than mcp-hub)',
          met: x.median < reference.median,
        });
      }
      const row = (label: string, x: LatencySummary) =>
        `| ${label} | ${formatMs(x.median)} | ${formatMs(x.p99)} | ${(x.median / reference.median).toFixed(2)}x | ${(x.p99 / reference.p99).toFixed(2)}x |`;
      return [
        `SDK client listTools() (all tools, cache bypassed), ${rounds} rotating rounds; tools listed: gateway ${counts['gateway-2025']}, mcp-hub ${counts['mcp-hub']}`,
        `| | median | p99 | median vs mcp-hub | p99 vs mcp-hub |`,
        `|---|---|---|---|---|`,
        row('gateway, 2025-11-25 session (Streamable HTTP)', summarise(samples['gateway-2025'])),
        row('gateway, 2026-07-28 (Streamable HTTP, stateless)', summarise(samples['gateway-2026'])),
        row(`mcp-hub ${MCP_HUB_VERSION} (2025 era, SSE)`, reference),
      ].join('\n');
    } finally {
      await hub.stop();
    }
  } finally {
    rmSync(hubDir, { recursive: true, force: true });
  }
}

const HUB_MEASURE = `SDK client listTools() (all 1,000 tools, cache bypassed), gateway vs mcp-hub ${MCP_HUB_VERSION} (2025 era, SSE), same 10 stdio upstreams x 100`;

const HUB_V8_FLAGS: readonly string[] = [...SMALL_HEAP_V8_FLAGS, ...START_UP_V8_FLAGS];

const SDK_FLOOR_MEASURE = `RSS (VmRSS) of the MCP SDK 2.x packages as installed (not bundled), alone, serving the same 1,000 tools on both revisions (the fixture upstream over HTTP, no upstreams, no store), with the server package alone and with the client package loaded too, both with ${HUB_V8_FLAGS.join(' ')}, after the same rounds of listings as the gateway, read beside it and mcp-hub ${MCP_HUB_VERSION}`;

const SDK_FLOOR_TARGET = 'recorded: the SDK 2.x packages as installed, under the gateway in rss-1k-vs-mcp-hub';

function mibOf(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

const RSS_VS_HUB_MEASURE = `RSS with 1,000 tools served (VmRSS), gateway process alone vs mcp-hub ${MCP_HUB_VERSION} process alone, same 10 stdio upstreams x 100, both with ${HUB_V8_FLAGS.join(' ')} (the gateway: the latter during start-up only)`;

/** The comparison could not run: its targets are reported as not met, with why, rather than left out. */
function hubNotMeasured(reason: string): string {
  for (const era of ['2025', '2026']) reportTarget({ id: `listing-vs-mcp-hub-${era}`, measure: HUB_MEASURE, figure: `not measured: ${reason}`, target: '< 1.00x (faster than mcp-hub)', met: false });
  reportTarget({ id: 'rss-1k-vs-mcp-hub', measure: RSS_VS_HUB_MEASURE, figure: `not measured: ${reason}`, target: '< 1.00x (below mcp-hub)', met: false });
  reportTarget({ id: 'rss-1k-sdk-floor', measure: SDK_FLOOR_MEASURE, figure: `not measured: ${reason}`, target: SDK_FLOOR_TARGET, met: false });
  return reason;
}

function loadAverage(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
}

async function main(): Promise<void> {
  console.log(`# gateway benchmark (node ${process.version}, ${ROUNDS} rounds, load average ${loadAverage()})`);
  const hundred = upstreams(100, 'k1');
  const gateway = await startGateway('k1', hundred, 1001);
  const directFile = join(work, 'direct.tools.json');
  writeFileSync(directFile, JSON.stringify(catalogueTools(100)));
  const directChild = spawnChild(process.execPath, [FIXTURE, '--http', '0', '--tools', directFile, '--name', 'direct']);
  const directUrl = JSON.parse((await directChild.waitFor(/^\{"url".*\}$/m, 30_000))[0]) as { url: string };

  console.log('\n## 1. raw HTTP tools/list, 1,000 tools: gateway (10 upstreams x 100) vs one upstream directly');
  const raw = await rawComparison(gateway.url, directUrl.url);
  console.log(`| | median | p99 | body |`);
  console.log(`|---|---|---|---|`);
  console.log(`| gateway | ${formatMs(raw.gateway.median)} | ${formatMs(raw.gateway.p99)} | ${raw.bytes.gateway} B |`);
  console.log(`| direct upstream | ${formatMs(raw.direct.median)} | ${formatMs(raw.direct.p99)} | ${raw.bytes.direct} B |`);
  console.log(`| gateway / direct | ${(raw.gateway.median / raw.direct.median).toFixed(2)}x | ${(raw.gateway.p99 / raw.direct.p99).toFixed(2)}x | |`);
  reportTarget({
    id: 'raw-listing-vs-direct',
    measure: `raw 2026-07-28 tools/list POST, 1,000 tools: gateway over 10 stdio upstreams x 100 vs one upstream serving them directly over HTTP, ${ROUNDS} alternating rounds`,
    figure: `${(raw.gateway.median / raw.direct.median).toFixed(2)}x (${formatMs(raw.gateway.median)} vs ${formatMs(raw.direct.median)} median; p99 ${formatMs(raw.gateway.p99)} vs ${formatMs(raw.direct.p99)})`,
    target: '<= 1.2x',
    met: raw.gateway.median <= 1.2 * raw.direct.median,
  });
  console.log(`  gateway RSS with 1,000 tools: ${mibOf(gateway.child.rssBytes())}`);
  await directChild.stop();

  console.log(`\n## 2. SDK client, gateway vs mcp-hub ${MCP_HUB_VERSION}, same 10 upstreams`);
  console.log(await hubComparison(gateway, hundred));
  // The machine is shared: the load right after the side-by-side rounds says how quiet they were.
  console.log(`  load average after section 2: ${loadAverage()}`);
  await gateway.child.stop();

  console.log('\n## 3. gateway RSS with 10,000 indexed tools (10 upstreams x 1,000)');
  const big = await startGateway('k10', upstreams(1000, 'k10'), 10_000); // first page: describe_tool + 9,999
  console.log(`  (the gateway process alone; its upstreams are separate processes)`);
  const served = big.child.rssBytes();
  console.log(`  all 10,000 tools indexed and served: ${mibOf(served)}`);
  const target = rawTarget(big.url);
  for (let i = 0; i < 20; i++) await rawToolsList(target);
  target.agent.destroy();
  console.log(`  right after 20 back-to-back full listings (~6 MB each): ${mibOf(big.child.rssBytes())}`);
  // V8 gives unused heap pages back once the process has been idle for a while (its memory reducer).
  let lowest = big.child.rssBytes();
  for (let i = 0; i < 8; i++) {
    await new Promise((r) => setTimeout(r, 5000));
    lowest = Math.min(lowest, big.child.rssBytes());
  }
  console.log(`  steady state (lowest over 40 s idle afterwards): ${mibOf(lowest)}`);
  const peak = big.child.peakRssBytes();
  await big.child.stop();
  const rssSetup = 'gateway process alone, 10 stdio upstreams x 1,000 tools, all indexed and served';
  reportTarget({ id: 'rss-10k-tools', measure: `RSS with 10,000 tools: ${rssSetup}, first full listing answered`, figure: `${mibOf(served)} (${mibOf(lowest)} idle after 20 full listings)`, target: '< 150 MiB', met: served < 150 * 2 ** 20 });
  reportTarget({ id: 'rss-10k-tools-peak', measure: `peak RSS (VmHWM) with 10,000 tools: ${rssSetup}, then 20 back-to-back full listings`, figure: mibOf(peak), target: '< 200 MiB', met: peak < 200 * 2 ** 20 });
}

main()
  .then(cleanUp, async (error: unknown) => {
    await cleanUp();
    process.stderr.write(`bench: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
