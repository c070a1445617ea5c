import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChildHandle } from './child-process-handle.js';
import { countTools, rawTarget, rawToolsList } from './raw-tools-list.js';
import { catalogue } from './tool-catalogue.js';

// BENCH_GATEWAY_DIST runs another build of the package (say, the one before a change) on the same
// benchmark, for before/after figures from the same script.
const DIST = process.env['BENCH_GATEWAY_DIST'] ?? join(fileURLToPath(new URL('..', import.meta.url)), 'dist');
const FIXTURE = join(DIST, 'fixture-upstream', 'main.js');
const SERVE = join(DIST, 'bin', 'serve.js');

export interface CatalogueGatewayOptions {
  readonly upstreams: number;
  readonly perUpstream: number;
  /** Runs the gateway under another program (e.g. valgrind): the command and the arguments before node's. */
  readonly launcher?: readonly string[];
  /** How long the gateway may take to start and serve every tool (default 120 s). */
  readonly startMs?: number;
  /** More gateway config members (e.g. extension_experiments for the decision records' benchmarks). */
  readonly config?: Readonly<Record<string, unknown>>;
}

export interface CatalogueGateway {
  readonly child: ChildHandle;
  readonly url: string;
  /** Every tool a full listing serves: the catalogue and the built-in describe_tool. */
  readonly tools: number;
}

/**
 * The listing benchmarks' gateway (dist/bin/serve.js, its own process, needs a build; see
 * BENCH_GATEWAY_DIST above) over
 * `upstreams` stdio fixture upstreams `up<i>` with `perUpstream` catalogue tools each, tool
 * quarantine off and `page_size` 10,000, so one tools/list answer carries the whole listing; resolves
 * once it serves every tool. Files go under `work`; 127.0.0.1 only.
 */
export async function startCatalogueGateway(work: string, options: CatalogueGatewayOptions): Promise<CatalogueGateway> {
  const servers = Array.from({ length: options.upstreams }, (_, i) => {
    const file = join(work, `up${i}.tools.json`);
    writeFileSync(file, JSON.stringify(catalogue(`t${i}`, options.perUpstream)));
    return { name: `up${i}`, command: process.execPath, args: [FIXTURE, '--tools', file, '--name', `up${i}`], quarantined: false };
  });
  const config = join(work, 'gateway.json');
  writeFileSync(config, JSON.stringify({ listen: '127.0.0.1:0', data_dir: join(work, 'data'), api_key: 'bench-admin-key-0123456789', tool_quarantine: false, page_size: 10_000, servers, ...options.config }));
  const [command, ...prefix] = options.launcher ?? [process.execPath];
  const args = options.launcher === undefined ? [SERVE, '--config', config] : [...prefix, process.execPath, SERVE, '--config', config];
  const child = new ChildHandle(command!, args);
  try {
    return await untilServing(child, options);
  } catch (error) {
    // The caller never gets the handle: stop the gateway here, or it would outlive the benchmark.
    await child.stop();
    throw error;
  }
}

async function untilServing(child: ChildHandle, options: CatalogueGatewayOptions): Promise<CatalogueGateway> {
  const startMs = options.startMs ?? 120_000;
  const url = (await child.waitFor(/serving MCP at (\S+)/, startMs))[1]!;
  const tools = options.upstreams * options.perUpstream + 1;
  const deadline = Date.now() + startMs;
  for (let served = 0; served < tools; ) {
    if (Date.now() > deadline) throw new Error(`the gateway did not serve ${tools} tools within ${startMs / 1000} s (last count: ${served})`);
    await new Promise((r) => setTimeout(r, 200));
    // One connection per probe: a slow gateway (valgrind) may close an idle keep-alive connection
    // just as the next probe reuses it, which says nothing about whether it serves its tools yet.
    const probe = rawTarget(url);
    try {
      served = countTools((await rawToolsList(probe)).body);
    } catch (error) {
      if (child.process.exitCode !== null) throw error;
    } finally {
      probe.agent.destroy();
    }
  }
  return { child, url, tools };
}
