// What "install it alone and use it" means for each published package: one consumer script
// run in a fresh project that installed only that package, and what its report must say.
// A package joins the end-to-end test by adding its entry here.
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { InstalledGateway } from './installed-gateway.js';

/** What earlier steps left running for later ones. */
export interface StepContext {
  gateway?: InstalledGateway;
}

export interface ConsumerStep {
  /** The one package the fresh project installs. */
  readonly package: string;
  /** What the step shows, for the test's name. */
  readonly use: string;
  readonly script: string;
  readonly verify: (report: Record<string, unknown>) => void;
  /** Installed beside the package, as its README says (a peer dependency). */
  readonly peers?: readonly string[];
  /** Started from this step's project once installed, for this step and later ones. */
  readonly starts?: 'gateway';
  /** The script's arguments, from what is running. */
  readonly args?: (context: StepContext) => readonly string[];
}

const READY_IDS = ['demo:echo', 'demo:get_greeting'];

function running(context: StepContext): InstalledGateway {
  if (context.gateway === undefined) throw new Error('no gateway is running: the @mcpproxy/cli step starts it');
  return context.gateway;
}

interface Run {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Exited on its own with this code, and said nothing on stderr (no stack trace, no warning). */
export function expectExit(run: Run, code: number): void {
  expect({ status: run.status, signal: run.signal }, `${run.stdout}\n${run.stderr}`).toEqual({ status: code, signal: null });
  expect(run.stderr).toBe('');
}

export const consumerScript = (file: string): string => fileURLToPath(new URL(`./consumers/${file}`, import.meta.url));

export const CONSUMER_STEPS: readonly ConsumerStep[] = [
  {
    package: '@mcpproxy/schema',
    use: 'validates its fixtures strictly and a future code leniently',
    script: consumerScript('schema-validate.mjs'),
    verify: (report) => {
      expect(report['valid_checked']).toBeGreaterThan(0);
      expect(report['valid_failures']).toEqual([]);
      expect(report['invalid_checked']).toBeGreaterThan(0);
      expect(report['invalid_misses']).toEqual([]);
      expect(report['example_facet_strict']).toBe(true);
      expect(report['future']).toEqual({
        strict: false,
        lenient: true,
        lenient_facet: true,
        treatment: expect.objectContaining({ known: false, class: 'permanent', retryable: false, verdict: 'blocked', exit_code: 11 }),
      });
    },
  },
  {
    package: '@mcpproxy/evaluator',
    use: 'evaluates a preflight request on a snapshot',
    script: consumerScript('evaluator-evaluate.mjs'),
    verify: (report) => {
      const evaluation = report['evaluation'] as { verdict: string; tools: Record<string, unknown>[] };
      expect(evaluation.verdict).toBe('unknown_ids');
      expect(evaluation.tools[0]).toMatchObject({ id: 'github:create_issue', status: 'ready' });
      expect(evaluation.tools[1]).toMatchObject({ id: 'github:create_isue', status: 'unavailable', reason: 'not_found', retryable: false, did_you_mean: ['github:create_issue'] });
      expect(evaluation.tools[2]).toMatchObject({ id: 'gitlab:create_issue', status: 'unavailable', reason: 'server_not_configured' });
      expect(report['unknown_code_verdict']).toBe('blocked');
    },
  },
  {
    package: '@mcpproxy/cli',
    use: 'runs `mcpproxy --help`, starts `mcpproxy serve` and preflights against it (exit 0 ready, 12 unknown id)',
    script: consumerScript('cli-preflight.mjs'),
    starts: 'gateway',
    args: (context) => {
      const { origin, apiKey } = running(context);
      return [origin, apiKey, '10s', ...READY_IDS, '--', 'demo:echo', 'demo:nope'];
    },
    verify: (report) => {
      const help = report['help'] as Run;
      expectExit(help, 0);
      expect(help.stdout).toMatch(/usage/i);
      expect(help.stdout).toContain('tools preflight');
      const [ready, unknown] = report['preflights'] as { ids: string[]; json: Run & { document: Record<string, unknown> }; table: Run }[];
      expectExit(ready!.json, 0);
      expect(ready!.json.document).toMatchObject({ verdict: 'ready', exit_code: 0, carriage: 'rest', tools: READY_IDS.map((id) => ({ id, status: 'ready' })) });
      expectExit(ready!.table, 0);
      expect(ready!.table.stdout).toContain('2 of 2 tools ready');
      expectExit(unknown!.json, 12);
      expect(unknown!.json.document).toMatchObject({
        verdict: 'unknown_ids',
        exit_code: 12,
        carriage: 'rest',
        tools: [
          { id: 'demo:echo', status: 'ready' },
          { id: 'demo:nope', status: 'unavailable', reason: 'not_found', retryable: false },
        ],
      });
      expectExit(unknown!.table, 12);
      expect(unknown!.table.stdout).toContain('not_found');
    },
  },
  {
    package: '@mcpproxy/client',
    peers: ['@modelcontextprotocol/client'],
    use: "runs its README example against the installed cli's gateway: the verdict and the carriage",
    script: consumerScript('client-example.mjs'),
    args: (context) => [running(context).mcpUrl, ...READY_IDS],
    verify: (report) => {
      expectExit(report as unknown as Run, 0);
      expect(report['stdout']).toMatch(/^all 2 required tools ready \(via rider, request \S+\)\n$/);
    },
  },
];
