import { describe, expect, it } from 'vitest';
import { checkValue, formatIssues, strictValidators } from '../src/index.js';

describe('checkValue', () => {
  it('returns the typed value when it validates', () => {
    const result = checkValue(strictValidators.RequestRider, { tools: [{ id: 'a:b' }] });
    expect(result).toEqual({ ok: true, value: { tools: [{ id: 'a:b' }] } });
    if (result.ok) expect(result.value.tools[0].id).toBe('a:b');
  });

  it('names the path and the rule of every issue, pointing at the offending property', () => {
    const result = checkValue(strictValidators.RequestRider, { tools: [], wait_ms: 5, extra: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: '/tools', rule: 'minItems' }),
        expect.objectContaining({ path: '/wait_ms', rule: 'false schema' }),
        expect.objectContaining({ path: '/extra', rule: 'additionalProperties' }),
      ]),
    );
    expect(result.issues.map((i) => i.rule)).not.toContain('if');
  });

  it('points a missing property at where it belongs', () => {
    const result = checkValue(strictValidators.ToolVerdict, { id: 'a:b', status: 'unavailable', reason: 'not_found' });
    expect(result.ok ? [] : result.issues).toContainEqual(expect.objectContaining({ path: '/retryable', rule: 'required' }));
  });

  it('escapes JSON pointer segments', () => {
    const result = checkValue(strictValidators.Policy, { 'a/b~c': true });
    expect(result.ok ? [] : result.issues.map((i) => i.path)).toContain('/a~1b~0c');
  });
});

describe('formatIssues', () => {
  it('writes one line per issue, with / for the whole document', () => {
    expect(
      formatIssues([
        { path: '', rule: 'type', message: 'must be object' },
        { path: '/tools', rule: 'minItems', message: 'must NOT have fewer than 1 items' },
      ]),
    ).toBe('/ type: must be object\n/tools minItems: must NOT have fewer than 1 items');
  });
});
