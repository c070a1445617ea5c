// The official MCP conformance suite (@modelcontextprotocol/conformance) against the running
// gateway (the fixture upstream and server-everything behind it), scenario by scenario. Every
// failure must be named and justified in
// conformance-baseline.json; a baseline entry that passes again fails the test too, so the baseline
// never outlives its reason.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer } from './everything-upstream.js';
import { fixtureServer, PACKAGE_DIR, type FixtureToolSpec, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';

// The suite's bundle imports fs.globSync (Node 22); this registers a stand-in where Node lacks it.
const NODE20_GLOB = join(PACKAGE_DIR, 'test', 'node20-glob', 'register-glob-sync.mjs');
const CONFORMANCE = join(PACKAGE_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const SCENARIOS = [
  'server-stateless',
  'server-initialize',
  'tools-list',
  'http-header-validation',
  'dns-rebinding-protection',
  // With server-everything behind the gateway: its prompts, resources and completions pass through.
  'caching',
  'logging-set-level',
  'completion-complete',
] as const;

interface Baseline {
  readonly scenarios: Readonly<Record<string, { readonly expected_failures: Readonly<Record<string, string>> }>>;
}
interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

const baseline = JSON.parse(readFileSync(join(PACKAGE_DIR, 'conformance-baseline.json'), 'utf8')) as Baseline;

function runScenario(url: string, scenario: string, outDir: string): Promise<Check[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', NODE20_GLOB, CONFORMANCE, 'server', '--url', url, '--scenario', scenario, '-o', outDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      const runs = existsSync(outDir) ? readdirSync(outDir).filter((d) => existsSync(join(outDir, d, 'checks.json'))) : [];
      if (runs.length !== 1) {
        reject(new Error(`conformance ${scenario} produced no checks.json:\n${output.slice(-2000)}`));
        return;
      }
      resolvePromise(JSON.parse(readFileSync(join(outDir, runs[0]!, 'checks.json'), 'utf8')) as Check[]);
    });
  });
}

describe('MCP conformance suite against the gateway', () => {
  let dir: TempDir;
  let gateway: TestGateway;
  beforeAll(async () => {
    dir = new TempDir();
    gateway = await startTestGateway(dir, { servers: [fixtureServer('demo', dir.tools('demo', DEMO_TOOLS)), everythingServer('everything')] });
    await waitForState(gateway.gateway, (state) => serverReady('demo')(state) && serverReady('everything')(state));
  });
  afterAll(async () => {
    await gateway?.close();
    dir?.remove();
  });

  it('has a baseline entry per scenario and nothing else', () => {
    expect(Object.keys(baseline.scenarios).sort()).toEqual([...SCENARIOS].sort());
  });

  for (const scenario of SCENARIOS) {
    it(`${scenario}: fails only where the baseline says why, and every baseline entry still fails`, async () => {
      const checks = await runScenario(gateway.url, scenario, join(dir.path, `conformance-${scenario}`));
      expect(checks.length).toBeGreaterThan(0);
      const expected = baseline.scenarios[scenario]?.expected_failures ?? {};
      const failing = new Map(checks.filter((c) => c.status === 'FAILURE').map((c) => [c.id, c.errorMessage ?? '']));
      const unexpected = [...failing].filter(([id]) => !Object.hasOwn(expected, id)).map(([id, message]) => `${id}: ${message}`);
      const stale = Object.keys(expected).filter((id) => !failing.has(id));
      expect(unexpected, 'failures not in conformance-baseline.json').toEqual([]);
      expect(stale, 'baseline entries that pass now (remove them)').toEqual([]);
    });
  }
});

const DEMO_TOOLS: FixtureToolSpec[] = [
  { name: 'echo', description: 'Echoes its arguments', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, echo: true as const, annotations: { readOnlyHint: true } },
  { name: 'add', description: 'Adds two numbers', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
];
