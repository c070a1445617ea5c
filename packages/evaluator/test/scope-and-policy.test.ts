import { describe, expect, it } from 'vitest';
import { aggregateVerdict, checkPolicy, classifyTool, resolveScope } from '../src/index.js';
import { LAST_ERROR_LIMIT, shownLastError } from '../src/connection-cause.js';
import { approval, gateway, server } from './snapshot-builder.js';

describe('resolveScope', () => {
  const snapshot = gateway([server('a'), server('b'), server('c')], { profiles: { ab: ['a', 'b', 'x'], bc: ['b', 'c'] } });
  it.each([
    [{ allowed_servers: '*' }, ['a', 'b', 'c']],
    [{ allowed_servers: ['c', 'a', 'zz'] }, ['a', 'c']],
    [{ allowed_servers: '*', profile_pin: 'ab' }, ['a', 'b']],
    [{ allowed_servers: '*', profile_pin: 'ab', active_profile: 'bc' }, ['b']],
    [{ allowed_servers: ['a'], active_profile: 'bc' }, []],
    [{ allowed_servers: '*', profile_pin: 'deleted' }, []],
    [{ allowed_servers: '*', active_profile: 'deleted' }, []],
    [{ allowed_servers: [] }, []],
  ] as const)('%j -> %j', (scope, expected) => {
    expect([...resolveScope(snapshot, scope)]).toEqual(expected);
  });
});

describe('checkPolicy', () => {
  it.each([
    [undefined, { read_only_only: true }, { reason: 'missing_annotation', rule: 'read_only_only', annotation: 'readOnlyHint' }],
    [{ readOnlyHint: false }, { read_only_only: true }, { reason: 'policy_filtered', rule: 'read_only_only', annotation: 'readOnlyHint', value: false }],
    [{ readOnlyHint: true }, { read_only_only: true, exclude_destructive: true }, undefined],
    [{ readOnlyHint: false }, { exclude_destructive: true }, { reason: 'missing_annotation', rule: 'exclude_destructive', annotation: 'destructiveHint' }],
    [{ destructiveHint: true }, { exclude_destructive: true }, { reason: 'policy_filtered', rule: 'exclude_destructive', annotation: 'destructiveHint', value: true }],
    [{ destructiveHint: false }, { exclude_destructive: true, exclude_open_world: true }, { reason: 'missing_annotation', rule: 'exclude_open_world', annotation: 'openWorldHint' }],
    [{ openWorldHint: true }, { exclude_open_world: true }, { reason: 'policy_filtered', rule: 'exclude_open_world', annotation: 'openWorldHint', value: true }],
    [{ openWorldHint: false, readOnlyHint: true }, { read_only_only: true, exclude_destructive: true, exclude_open_world: true }, undefined],
    [undefined, { read_only_only: false, exclude_destructive: false }, undefined],
    [undefined, undefined, undefined],
  ] as const)('%j under %j', (annotations, policy, expected) => {
    expect(checkPolicy(annotations, policy)).toEqual(expected);
  });
});

describe('classifyTool', () => {
  const approvals = [approval('gone', { user_disabled: true }), approval('new', { status: 'pending' }), approval('moved', { status: 'changed' })];
  const guarded = server('s', { approvals, enabled_tools: ['ok', 'gone', 'new', 'moved', 'no'], disabled_tools: ['no'] });
  it.each([
    ['ok', true, undefined],
    ['absent', true, 'tool_denied_by_config'],
    ['no', true, 'tool_denied_by_config'],
    ['gone', false, 'tool_blocked_by_user'],
    ['new', true, 'tool_pending_approval'],
    ['moved', true, 'tool_changed'],
    ['new', false, undefined],
    ['moved', false, undefined],
  ] as const)('%s (tool quarantine %s) -> %s', (name, quarantine, expected) => {
    expect(classifyTool(guarded, name, quarantine)).toBe(expected);
  });

  it('lets a server that auto-approves changes skip gates 8-9', () => {
    const trusting = server('s', { approvals, auto_approve_tool_changes: true });
    expect(classifyTool(trusting, 'new', true)).toBeUndefined();
    expect(classifyTool(trusting, 'moved', true)).toBeUndefined();
    expect(classifyTool(trusting, 'gone', true)).toBe('tool_blocked_by_user');
  });
});

describe('aggregateVerdict', () => {
  it.each([
    [[], 'ready'],
    [[{ status: 'ready' }], 'ready'],
    [[{ status: 'ready' }, { status: 'unavailable', reason: 'server_initializing' }], 'degraded_retryable'],
    [[{ status: 'unavailable', reason: 'server_unhealthy' }, { status: 'unavailable', reason: 'policy_filtered' }], 'blocked'],
    [[{ status: 'unavailable', reason: 'server_initializing' }, { status: 'unavailable', reason: 'a_code_from_v2' }], 'blocked'],
    [[{ status: 'unavailable' }], 'blocked'],
    [[{ status: 'unavailable', reason: 'server_not_configured' }, { status: 'unavailable', reason: 'a_code_from_v2' }], 'unknown_ids'],
    [[{ status: 'unavailable', reason: 'not_found' }, { status: 'ready' }], 'unknown_ids'],
  ] as const)('%j -> %s', (results, expected) => {
    expect(aggregateVerdict(results)).toBe(expected);
  });
});

describe('the last error shown by server_unhealthy', () => {
  it('says so when there is none, and is cut to the limit in code points', () => {
    expect(shownLastError(undefined)).toBe('no error recorded');
    expect(shownLastError('')).toBe('no error recorded');
    expect(shownLastError('boom')).toBe('boom');
    const long = '😀'.repeat(LAST_ERROR_LIMIT + 5);
    const shown = shownLastError(long);
    expect(Array.from(shown)).toHaveLength(LAST_ERROR_LIMIT);
    expect(shown.endsWith('😀…')).toBe(true);
    expect(shownLastError('x'.repeat(LAST_ERROR_LIMIT))).toBe('x'.repeat(LAST_ERROR_LIMIT));
  });
});
