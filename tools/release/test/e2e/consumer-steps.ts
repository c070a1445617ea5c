// What "install it alone and use it" means for each published package: one consumer script
// run in a fresh project that installed only that package, and what its report must say.
// A package joins the end-to-end test by adding its entry here.
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export interface ConsumerStep {
  /** The one package the fresh project installs. */
  readonly package: string;
  /** What the step shows, for the test's name. */
  readonly use: string;
  readonly script: string;
  readonly verify: (report: Record<string, unknown>) => void;
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
];
