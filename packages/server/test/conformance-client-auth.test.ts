// The MCP conformance suite's client authorization scenarios against the gateway's upstream OAuth
// client: for each scenario the suite starts its own resource and authorization servers and runs
// test/conformance-client/upstream-oauth-client.ts with the server URL, which starts a real gateway
// (from dist) on that upstream and logs in through the gateway's REST flow. Every check that does not
// pass must be named and justified in conformance-client-auth-baseline.json, and a baseline entry that
// passes fails the test too. Two scenarios at a time: each starts a gateway, the machine has two cores.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_DIR, TempDir } from './gateway-harness.js';

const NODE20_GLOB = join(PACKAGE_DIR, 'test', 'node20-glob', 'register-glob-sync.mjs');
const CONFORMANCE = join(PACKAGE_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const COMMAND = `node --import tsx ${join('test', 'conformance-client', 'upstream-oauth-client.ts')}`;
const CONCURRENCY = 2;
/** One scenario's bound: the suite's own client timeout is 120 s, and then it still writes its checks. */
const SCENARIO_KILL_MS = 180_000;

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
  readonly description?: string;
}

const baseline = JSON.parse(readFileSync(join(PACKAGE_DIR, 'conformance-client-auth-baseline.json'), 'utf8')) as { scenarios: Record<string, Record<string, string>> };
const SCENARIOS = Object.keys(baseline.scenarios);

function runScenario(scenario: string, outDir: string): Promise<Check[]> {
  return new Promise((resolvePromise, reject) => {
    const args = ['--import', NODE20_GLOB, CONFORMANCE, 'client', '--command', COMMAND, '--scenario', scenario, '--spec-version', '2025-11-25', '--force', '--timeout', '120000', '-o', outDir];
    const child = spawn(process.execPath, args, { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), SCENARIO_KILL_MS);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      const file = findChecks(outDir);
      if (file === undefined) reject(new Error(`conformance ${scenario} wrote no checks.json:\n${output}`));
      else resolvePromise(JSON.parse(readFileSync(file, 'utf8')) as Check[]);
    });
  });
}

function findChecks(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === 'checks.json') return path;
    if (entry.isDirectory()) {
      const found = findChecks(path);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const results = new Map<string, Check[] | Error>();
let dir: TempDir;

beforeAll(async () => {
  dir = new TempDir();
  const queue = [...SCENARIOS];
  const worker = async () => {
    for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
      try {
        results.set(scenario, await runScenario(scenario, join(dir.path, scenario.replace('/', '-'))));
      } catch (error) {
        results.set(scenario, error instanceof Error ? error : new Error(String(error)));
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}, 20 * 60_000);
afterAll(() => dir?.remove());

describe('MCP conformance client authorization scenarios against the gateway\'s upstream OAuth client', () => {
  it('the baseline names every client auth scenario of the suite it runs', () => {
    expect(SCENARIOS.length).toBe(33);
    expect(new Set(SCENARIOS).size).toBe(SCENARIOS.length);
  });

  for (const scenario of SCENARIOS) {
    it(`${scenario}: only the baseline's checks do not pass, and each of them still does not`, () => {
      const checks = results.get(scenario);
      if (checks instanceof Error) throw checks;
      expect(checks?.length ?? 0).toBeGreaterThan(0);
      const expected = baseline.scenarios[scenario] ?? {};
      const notPassing = new Map((checks ?? []).filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').map((c) => [c.id, `${c.status}: ${c.errorMessage ?? c.description ?? ''}`]));
      const unexpected = [...notPassing].filter(([id]) => !Object.hasOwn(expected, id)).map(([id, why]) => `${id}: ${why}`);
      const stale = Object.keys(expected).filter((id) => !notPassing.has(id));
      expect(unexpected, 'checks that do not pass and are not in conformance-client-auth-baseline.json').toEqual([]);
      expect(stale, 'baseline entries that pass now (remove them)').toEqual([]);
    });
  }
});
