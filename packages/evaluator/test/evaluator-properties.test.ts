// Property tests over random small snapshots, requests and contexts (10,000 runs each).
import fc from 'fast-check';
import { REST_AGENT_REASON_CODES, REST_OPERATOR_REASON_CODES, strictValidators } from '@mcpproxy/schema';
import { describe, expect, it } from 'vitest';
import { evaluate, prepareSnapshot, type EvaluationContext, type GatewaySnapshot, type PreflightRequest } from '../src/index.js';
import { inputArb as input } from './arbitraries.js';
import { NAIVE_TABLE, NAIVE_VERDICT_ORDER, naiveEvaluate, naiveInScope } from './naive-evaluator.js';

const RUNS = { numRuns: 10_000 };
const OPERATOR_ONLY = REST_OPERATOR_REASON_CODES.filter((code) => !(REST_AGENT_REASON_CODES as readonly string[]).includes(code));

function run(snapshot: GatewaySnapshot, request: PreflightRequest, context: EvaluationContext) {
  return evaluate(prepareSnapshot(snapshot), request, context);
}

function validatorErrors(name: keyof typeof strictValidators, value: unknown): string | undefined {
  const validate = strictValidators[name];
  return validate(value) ? undefined : `${name}: ${JSON.stringify(validate.errors)} for ${JSON.stringify(value)}`;
}

describe('evaluator properties', () => {
  it('equals the naive reference evaluator', () => {
    fc.assert(
      fc.property(input, ([snapshot, request, context]) => {
        expect(run(snapshot, request, context)).toStrictEqual(naiveEvaluate(snapshot, request, context));
      }),
      RUNS,
    );
  });

  it('passes the strict validator of its tier (and, in band, of the rider and check mode)', () => {
    fc.assert(
      fc.property(input, ([snapshot, request, context]) => {
        const restDef = context.tier === 'operator' ? 'RestToolVerdict' : 'RestAgentToolVerdict';
        for (const result of run(snapshot, request, context).tools) expect(validatorErrors(restDef, result)).toBeUndefined();
        // In-band surfaces: agent tier, no pins.
        const inBand = { ...request, tools: request.tools.map(({ id }) => ({ id })) };
        for (const result of run(snapshot, inBand, { tier: 'agent', scope: context.scope }).tools) {
          expect(validatorErrors('ToolVerdict', result)).toBeUndefined();
          expect(validatorErrors('CheckModeToolVerdict', result)).toBeUndefined();
        }
      }),
      RUNS,
    );
  });

  it('never shows an operator-only code or a hash at the agent tier', () => {
    fc.assert(
      fc.property(input, ([snapshot, request, context]) => {
        for (const result of run(snapshot, request, { ...context, tier: 'agent' }).tools) {
          expect(OPERATOR_ONLY).not.toContain(result.reason);
          expect(result).not.toHaveProperty('hash');
        }
      }),
      RUNS,
    );
  });

  it('reads the same at the agent tier whether a server is out of scope or not configured', () => {
    const withServer = input.filter(([snapshot]) => snapshot.servers.size > 0);
    fc.assert(
      fc.property(withServer, fc.nat(), ([snapshot, request, context], pick) => {
        const names = [...snapshot.servers.keys()];
        const hidden = names[pick % names.length]!;
        const allowed = context.scope.allowed_servers === '*' ? names : context.scope.allowed_servers;
        const scope = { ...context.scope, allowed_servers: allowed.filter((name) => name !== hidden) };
        const outOfScope = run(snapshot, request, { tier: 'agent', scope });
        const unconfigured = run({ ...snapshot, servers: new Map([...snapshot.servers].filter(([name]) => name !== hidden)) }, request, { tier: 'agent', scope });
        expect(JSON.stringify(outOfScope)).toBe(JSON.stringify(unconfigured));
      }),
      RUNS,
    );
  });

  it('never suggests a name on a server outside the caller scope', () => {
    fc.assert(
      fc.property(input, ([snapshot, request, context]) => {
        for (const result of run(snapshot, request, context).tools) {
          for (const name of result.did_you_mean ?? []) {
            const server = name.slice(0, name.indexOf(':'));
            expect(snapshot.servers.has(server)).toBe(true);
            expect(naiveInScope(snapshot, context, server)).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });

  it('sets the verdict to the worst class present', () => {
    fc.assert(
      fc.property(input, ([snapshot, request, context]) => {
        const evaluation = run(snapshot, request, context);
        const ranks = evaluation.tools.map((result) =>
          NAIVE_VERDICT_ORDER.indexOf(result.status === 'ready' ? 'ready' : NAIVE_TABLE[result.reason!]!.verdict),
        );
        expect(evaluation.verdict).toBe(NAIVE_VERDICT_ORDER[Math.max(0, ...ranks)]);
      }),
      RUNS,
    );
  });

  it('is deterministic: the same input gives byte-identical JSON', () => {
    fc.assert(
      fc.property(input, ([snapshot, request, context]) => {
        const prepared = prepareSnapshot(snapshot);
        const first = JSON.stringify(evaluate(prepared, request, context));
        expect(JSON.stringify(evaluate(prepared, request, context))).toBe(first);
        expect(JSON.stringify(evaluate(prepareSnapshot(snapshot), request, context))).toBe(first);
      }),
      RUNS,
    );
  });
});
