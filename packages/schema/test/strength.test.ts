// Strict validators are for producers, lenient ones for consumers: a consumer built for this
// settings version reads an answer with a newer code and treats it as permanent and blocked.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lenientValidators, REASON_CODES, REASONS, reasonTreatment, SETTINGS_VERSION, strictValidators } from '../src/index.js';

const CODE_NAME = /^[a-z][a-z0-9_]{0,30}$/;
// A name every plain object inherits can be a well-formed code too (`constructor` is the one):
// a consumer must not take it for a known code.
const inheritedNames = fc.constantFrom(...Object.getOwnPropertyNames(Object.prototype).filter((name) => CODE_NAME.test(name)));
const futureCode = fc
  .oneof(
    fc.tuple(fc.stringMatching(CODE_NAME), fc.option(fc.stringMatching(/^[a-z0-9]+(\.[a-z0-9-]+)+$/), { nil: undefined }))
      .map(([name, vendor]) => (vendor === undefined ? name : `${vendor}/${name}`)),
    inheritedNames,
  )
  .filter((code) => !Object.hasOwn(REASONS, code));

describe('strict and lenient validators', () => {
  it('strict rejects a code the lenient accepts', () => {
    const verdict = { id: 'a:b', status: 'unavailable', reason: 'some_future_code', retryable: false };
    expect(strictValidators.ToolVerdict(verdict)).toBe(false);
    expect(lenientValidators.ToolVerdict(verdict)).toBe(true);
  });

  it('lenient still enforces retryable for known codes', () => {
    for (const code of REASON_CODES) {
      const entry = REASONS[code];
      const surfaceDef = entry.surfaces.rider ? 'ToolVerdict' : 'RestToolVerdict';
      const wrong = { id: 'a:b', status: 'unavailable', reason: code, retryable: !entry.retryable };
      expect(lenientValidators[surfaceDef](wrong), code).toBe(false);
      expect(lenientValidators[surfaceDef]({ ...wrong, retryable: entry.retryable }), code).toBe(true);
    }
  });

  it('property: any well-formed unknown code fails strict, passes lenient, and is treated as permanent and blocked', () => {
    fc.assert(
      fc.property(futureCode, fc.boolean(), (code, retryable) => {
        const verdict = { id: 'a:b', status: 'unavailable', reason: code, retryable };
        expect(strictValidators.ToolVerdict(verdict)).toBe(false);
        expect(lenientValidators.ToolVerdict(verdict)).toBe(true);
        expect(lenientValidators.ResolveFacet({ status: 'unavailable', reason: code, retryable })).toBe(true);
        expect(reasonTreatment(code)).toEqual({ known: false, class: 'permanent', retryable: false, verdict: 'blocked', exit_code: 11 });
      }),
      { examples: [['constructor', false]] },
    );
  });

  it('lenient accepts a newer settings version and any well-formed action; strict does not', () => {
    expect(lenientValidators.Settings({ version: SETTINGS_VERSION + 1 })).toBe(true);
    expect(strictValidators.Settings({ version: SETTINGS_VERSION + 1 })).toBe(false);
    const verdict = { id: 'a:b', status: 'unavailable', reason: 'some_future_code', retryable: true, action: 'reauthorize' };
    expect(lenientValidators.ToolVerdict(verdict)).toBe(true);
    expect(strictValidators.ToolVerdict(verdict)).toBe(false);
  });

  it('reasonTreatment reads known codes from the registry', () => {
    expect(reasonTreatment('server_initializing')).toEqual({ known: true, class: 'retryable', retryable: true, verdict: 'degraded_retryable', exit_code: 10 });
    expect(reasonTreatment('not_found')).toMatchObject({ known: true, verdict: 'unknown_ids', exit_code: 12 });
    expect(reasonTreatment('constructor').known).toBe(false);
  });
});
