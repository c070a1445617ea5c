// A tool the host serves itself (the gateway's describe_tool) is judged by the annotation policy
// alone, and reads exactly like an upstream tool with the same annotations on a ready server, but
// for its name.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate, evaluateHostTool, prepareSnapshot } from '../src/index.js';
import { annotationsArb, policyArb } from './arbitraries.js';
import { gateway, server, tool } from './snapshot-builder.js';

describe('evaluateHostTool', () => {
  it('agrees with evaluate() on an upstream tool of a ready server with the same annotations', () => {
    fc.assert(
      fc.property(fc.option(annotationsArb, { nil: undefined }), fc.option(policyArb, { nil: undefined }), (annotations, policy) => {
        const host = evaluateHostTool('describe_tool', annotations, policy);
        const prepared = prepareSnapshot(gateway([server('h', { tools: [tool('describe_tool', annotations)] })], { tool_quarantine: false }));
        const upstream = evaluate(prepared, { tools: [{ id: 'h:describe_tool' }], ...(policy === undefined ? {} : { policy }) }, { tier: 'agent', scope: { allowed_servers: '*' } }).tools[0]!;
        const renamed = JSON.parse(JSON.stringify(upstream).replaceAll('h:describe_tool', 'describe_tool')) as unknown;
        expect(host).toEqual(renamed);
      }),
    );
  });

  it('is ready without a policy, whatever the annotations, and names a missing annotation', () => {
    expect(evaluateHostTool('describe_tool', undefined, undefined)).toEqual({ id: 'describe_tool', status: 'ready' });
    expect(evaluateHostTool('describe_tool', { readOnlyHint: true }, { exclude_open_world: true })).toMatchObject({
      id: 'describe_tool',
      status: 'unavailable',
      reason: 'missing_annotation',
      detail: expect.stringContaining('describe_tool'),
    });
  });
});
