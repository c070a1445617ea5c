// A server that is not a gateway: its own tools as it lists them and why any is unavailable. The
// worked example of the extension's README, then properties against the naive oracle.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { strictValidators } from '@mcpproxy/schema';
import { evaluateToolStates, prepareToolStates, type ToolState } from '../src/index.js';
import { toolStatesArb, toolStatesRequestArb } from './arbitraries.js';
import { naiveToolStates } from './naive-evaluator.js';

const MAIL_AND_SEARCH: ToolState[] = [
  { name: 'send_email', listed: false, unavailable: { reason: 'tool_blocked_by_user', detail: 'send_email is off until SMTP_PASSWORD is set.', remediation: 'Set SMTP_PASSWORD, then restart the server.' } },
  { name: 'search', listed: true, annotations: { readOnlyHint: true }, unavailable: { reason: 'server_initializing', detail: 'The search index is warming up.' } },
  { name: 'stats', listed: true, annotations: { readOnlyHint: true, openWorldHint: false } },
  { name: 'purge', listed: true, annotations: { destructiveHint: true } },
];

describe('evaluateToolStates', () => {
  it('answers each tool of a plain server: its reason, the policy, not_found with suggestions from the listing', () => {
    const evaluation = evaluateToolStates(prepareToolStates(MAIL_AND_SEARCH), {
      tools: [{ id: 'send_email' }, { id: ' search ' }, { id: 'stats' }, { id: 'purge' }, { id: 'stat' }],
      policy: { read_only_only: true },
    });
    expect(evaluation).toStrictEqual({
      verdict: 'unknown_ids',
      tools: [
        { id: 'send_email', status: 'unavailable', reason: 'tool_blocked_by_user', retryable: false, action: 'enable', detail: 'send_email is off until SMTP_PASSWORD is set.', remediation: 'Set SMTP_PASSWORD, then restart the server.' },
        { id: ' search ', status: 'unavailable', reason: 'server_initializing', retryable: true, detail: 'The search index is warming up.' },
        { id: 'stats', status: 'ready' },
        {
          id: 'purge',
          status: 'unavailable',
          reason: 'missing_annotation',
          retryable: false,
          action: 'configure',
          detail: 'Tool purge does not declare readOnlyHint, which the read_only_only policy needs.',
          remediation: "Drop read_only_only from the policy, or have the server's author declare readOnlyHint.",
        },
        {
          id: 'stat',
          status: 'unavailable',
          reason: 'not_found',
          retryable: false,
          action: 'configure',
          detail: 'Tool stat is not among the tools this server lists.',
          remediation: "List the server's tools with tools/list and ask for one of those names.",
          did_you_mean: ['stats'],
        },
      ],
    });
  });

  it('keeps a diagnosed action of server_unhealthy; a listed tool with no reason and no policy is ready', () => {
    const states: ToolState[] = [
      { name: 'sync', listed: true, unavailable: { reason: 'server_unhealthy', action: 'restart' } },
      { name: 'plain', listed: true },
    ];
    expect(evaluateToolStates(prepareToolStates(states), { tools: [{ id: 'sync' }, { id: 'plain' }] })).toStrictEqual({
      verdict: 'degraded_retryable',
      tools: [
        { id: 'sync', status: 'unavailable', reason: 'server_unhealthy', retryable: true, action: 'restart' },
        { id: 'plain', status: 'ready' },
      ],
    });
  });

  it('an unlisted tool without a reason is not_found, and no unlisted tool is ever suggested', () => {
    const states: ToolState[] = [
      { name: 'search', listed: false },
      { name: 'searches', listed: false, unavailable: { reason: 'server_initializing' } },
    ];
    const [unlisted, ghost] = evaluateToolStates(prepareToolStates(states), { tools: [{ id: 'search' }, { id: 'searc' }] }).tools;
    expect(unlisted).toMatchObject({ reason: 'not_found' });
    expect(unlisted).not.toHaveProperty('did_you_mean');
    expect(ghost).toMatchObject({ reason: 'not_found' });
    expect(ghost).not.toHaveProperty('did_you_mean');
  });

  it('equals the naive oracle', () => {
    const input = toolStatesArb.chain((states) => fc.tuple(fc.constant(states), toolStatesRequestArb(states)));
    fc.assert(
      fc.property(input, ([states, request]) => {
        expect(evaluateToolStates(prepareToolStates(states), request)).toStrictEqual(naiveToolStates(states, request));
      }),
      { numRuns: 3_000 },
    );
  });

  it('gives rider and check-mode verdicts the strict validators accept', () => {
    const input = toolStatesArb.chain((states) => fc.tuple(fc.constant(states), toolStatesRequestArb(states)));
    fc.assert(
      fc.property(input, ([states, request]) => {
        for (const result of evaluateToolStates(prepareToolStates(states), request).tools) {
          expect(strictValidators.ToolVerdict(result), JSON.stringify(strictValidators.ToolVerdict.errors)).toBe(true);
          expect(strictValidators.CheckModeToolVerdict(result)).toBe(true);
        }
      }),
      { numRuns: 1_000 },
    );
  });
});
