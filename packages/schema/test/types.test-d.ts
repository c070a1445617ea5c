// Compile-time proof that the generated types are exact where quicktype alone is not, and
// agree with the registry constants both ways.
import { describe, expectTypeOf, it } from 'vitest';
import type {
  Action,
  ACTIONS,
  ActivityRecord,
  CheckModeArguments,
  CheckModeToolVerdict,
  CheckReasonCode,
  LenientToolVerdict,
  REASONS,
  ReasonCode,
  ReservedReasonCode,
  ResolveFacet,
  ResolveReasonCode,
  RestAgentReasonCode,
  RestAgentToolVerdict,
  RestOperatorReasonCode,
  RestPreflightResponse,
  RestToolVerdict,
  RiderReasonCode,
  Settings,
  StrictValidators,
  ToolVerdict,
  Verdict,
  VERDICTS,
} from '../src/index.js';
import { SETTINGS_VERSION } from '../src/index.js';

type UnavailableOf<T> = Extract<T, { status: 'unavailable' }>;

describe('exact verdict types', () => {
  it('rejects what the schema rejects', () => {
    // @ts-expect-error a ready verdict carries no reason
    const readyWithReason: ToolVerdict = { id: 'a:b', status: 'ready', reason: 'not_found' };
    // @ts-expect-error did_you_mean belongs to not_found only
    const suggestionOnChanged: ToolVerdict = { id: 'a:b', status: 'unavailable', reason: 'tool_changed', retryable: false, did_you_mean: ['a:c'] };
    // @ts-expect-error server_not_in_scope never reaches the extension wire
    const outOfScope: ToolVerdict = { id: 'a:b', status: 'unavailable', reason: 'server_not_in_scope', retryable: false };
    // @ts-expect-error hash_mismatch is not a rider code either
    const mismatch: ToolVerdict = { id: 'a:b', status: 'unavailable', reason: 'hash_mismatch', retryable: false };
    // @ts-expect-error the registry says server_initializing is retryable
    const wrongRetryable: ToolVerdict = { id: 'a:b', status: 'unavailable', reason: 'server_initializing', retryable: false };
    // @ts-expect-error policy_filtered takes no action
    const actionOnPolicy: ToolVerdict = { id: 'a:b', status: 'unavailable', reason: 'policy_filtered', retryable: false, action: 'configure' };
    // @ts-expect-error server_unhealthy takes view_logs, restart or login only
    const wrongAction: ToolVerdict = { id: 'a:b', status: 'unavailable', reason: 'server_unhealthy', retryable: true, action: 'approve' };
    // @ts-expect-error an unavailable verdict needs retryable
    const noRetryable: ToolVerdict = { id: 'a:b', status: 'unavailable', reason: 'not_found' };
    // @ts-expect-error the resolve facet cannot carry not_found
    const resolveNotFound: ResolveFacet = { status: 'unavailable', reason: 'not_found', retryable: false };
    // @ts-expect-error only a ready REST result carries a hash
    const hashOnUnavailable: RestToolVerdict = { id: 'a:b', status: 'unavailable', reason: 'tool_changed', retryable: false, hash: 'sha256/v1:0' };
    // @ts-expect-error the agent tier never carries a hash
    const agentHash: RestAgentToolVerdict = { id: 'a:b', status: 'ready', hash: 'sha256/v1:0' };
    // @ts-expect-error a producer advertises its own settings version only (0 is never one)
    const version2: Settings = { version: 0 };
    // @ts-expect-error check mode means check: true
    const notChecking: CheckModeArguments = { tool_ids: ['a:b'], check: false };
    void [readyWithReason, suggestionOnChanged, outOfScope, mismatch, wrongRetryable, actionOnPolicy, wrongAction, noRetryable];
    void [resolveNotFound, hashOnUnavailable, agentHash, version2, notChecking];
  });

  it('accepts what the schema accepts', () => {
    const verdicts: ToolVerdict[] = [
      { id: 'a:b', status: 'ready' },
      { id: 'a:b', status: 'unavailable', reason: 'not_found', retryable: false, action: 'configure', did_you_mean: ['a:c'] },
      { id: 'a:b', status: 'unavailable', reason: 'server_unhealthy', retryable: true, action: 'restart', detail: 'x' },
    ];
    const rest: RestToolVerdict = { id: 'a:b', status: 'ready', hash: 'sha256/v1:0' };
    const lenient: LenientToolVerdict = { id: 'a:b', status: 'unavailable', reason: 'vendor.example/new_code', retryable: true, action: 'reauthorize' };
    const settings: Settings = { version: SETTINGS_VERSION, max_tools: 50 };
    expectTypeOf<Settings['version']>().toEqualTypeOf<typeof SETTINGS_VERSION>();
    void [verdicts, rest, lenient, settings];
  });

  it('narrows on status and reason', () => {
    const verdict = {} as ToolVerdict;
    if (verdict.status === 'unavailable' && verdict.reason === 'server_initializing') {
      expectTypeOf(verdict.retryable).toEqualTypeOf<true>();
      expectTypeOf(verdict.action).toEqualTypeOf<undefined>();
    }
    if (verdict.status === 'unavailable' && verdict.reason === 'not_found') {
      expectTypeOf(verdict.did_you_mean).toEqualTypeOf<readonly string[] | undefined>();
    }
    const record = {} as ActivityRecord;
    if (record.type === 'tool_call') expectTypeOf(record.metadata.outcome).toEqualTypeOf<'success' | 'tool_error' | 'upstream_error' | 'refused'>();
  });
});

describe('two-way agreement with the registry', () => {
  it('codes', () => {
    expectTypeOf<ReasonCode>().toEqualTypeOf<Exclude<keyof typeof REASONS, ReservedReasonCode>>();
    expectTypeOf<UnavailableOf<ToolVerdict>['reason']>().toEqualTypeOf<RiderReasonCode>();
    expectTypeOf<NonNullable<ToolVerdict['reason']>>().toEqualTypeOf<RiderReasonCode>();
    expectTypeOf<UnavailableOf<CheckModeToolVerdict>['reason']>().toEqualTypeOf<CheckReasonCode>();
    expectTypeOf<UnavailableOf<ResolveFacet>['reason']>().toEqualTypeOf<ResolveReasonCode>();
    expectTypeOf<UnavailableOf<RestToolVerdict>['reason']>().toEqualTypeOf<RestOperatorReasonCode>();
    expectTypeOf<UnavailableOf<RestAgentToolVerdict>['reason']>().toEqualTypeOf<RestAgentReasonCode>();
    expectTypeOf<RestPreflightResponse['tools'][number]>().toEqualTypeOf<RestToolVerdict>();
  });

  it('actions and verdicts', () => {
    expectTypeOf<Action>().toEqualTypeOf<(typeof ACTIONS)[number]>();
    expectTypeOf<NonNullable<UnavailableOf<ToolVerdict>['action']>>().toEqualTypeOf<Exclude<Action, 'set_secret'>>();
    expectTypeOf<Verdict>().toEqualTypeOf<(typeof VERDICTS)[number]>();
  });

  it('validators narrow to the generated types', () => {
    const value: unknown = {};
    const validate = {} as StrictValidators['ToolVerdict'];
    if (validate(value)) expectTypeOf(value).toEqualTypeOf<ToolVerdict>();
  });
});
