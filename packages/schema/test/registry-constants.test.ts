// Pinned on purpose: a registry change has to edit this file too, so it is seen in review (MAINTAINERS.md lists it among the pinned tests).
import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  CHECK_REASON_CODES,
  EXTENSION_ID,
  MAX_TOOLS,
  REASON_CODES,
  REASONS,
  RESERVED_REASON_CODES,
  RESOLVE_REASON_CODES,
  REST_AGENT_REASON_CODES,
  REST_MAX_TOOLS,
  REST_OPERATOR_REASON_CODES,
  RIDER_REASON_CODES,
  SETTINGS_VERSION,
  SURFACES,
  UNKNOWN_CODE,
  VERDICT_EXIT_CODES,
  VERDICTS,
} from '../src/index.js';

describe('registry constants', () => {
  it('pins the extension, version and caps', () => {
    expect(EXTENSION_ID).toBe('app.mcpproxy/required-tools');
    expect(SETTINGS_VERSION).toBe(2);
    expect(MAX_TOOLS).toBe(50);
    expect(REST_MAX_TOOLS).toBe(100);
  });

  it('pins the 16 codes of settings version 2 (server_saturated, reserved in 1, active since 2) and no reserved one', () => {
    expect(REASON_CODES).toEqual([
      'server_initializing',
      'server_unhealthy',
      'server_disabled',
      'server_quarantined',
      'tool_pending_approval',
      'tool_changed',
      'tool_blocked_by_user',
      'oauth_required',
      'hash_mismatch',
      'server_not_in_scope',
      'tool_denied_by_config',
      'missing_annotation',
      'policy_filtered',
      'not_found',
      'server_not_configured',
      'server_saturated',
    ]);
    expect(RESERVED_REASON_CODES).toEqual([]);
    expect(REASONS.server_saturated.activated_in).toBe(2);
    expect(Object.keys(REASONS)).toHaveLength(16);
  });

  it('pins the vocabularies', () => {
    expect(ACTIONS).toEqual(['login', 'restart', 'enable', 'approve', 'view_logs', 'set_secret', 'configure']);
    expect(VERDICTS).toEqual(['ready', 'degraded_retryable', 'blocked', 'unknown_ids']);
    expect(VERDICT_EXIT_CODES).toEqual({ ready: 0, degraded_retryable: 10, blocked: 11, unknown_ids: 12 });
    expect(SURFACES).toEqual(['rest_operator', 'rest_agent', 'rider', 'check', 'resolve']);
    expect(UNKNOWN_CODE).toEqual({ class: 'permanent', retryable: false, verdict: 'blocked' });
  });

  it('pins the wire subsets', () => {
    expect(REST_OPERATOR_REASON_CODES).toEqual(REASON_CODES);
    expect(REST_AGENT_REASON_CODES).toEqual(REASON_CODES.filter((c) => c !== 'server_not_in_scope' && c !== 'server_not_configured'));
    const inBand = REASON_CODES.filter((c) => !['hash_mismatch', 'server_not_in_scope', 'server_not_configured'].includes(c));
    expect(RIDER_REASON_CODES).toEqual(inBand);
    expect(CHECK_REASON_CODES).toEqual(inBand);
    expect(RESOLVE_REASON_CODES).toEqual(['server_initializing', 'server_unhealthy', 'oauth_required', 'missing_annotation', 'policy_filtered', 'server_saturated']);
  });

  it('pins the table of v2 (class, retryable, action, verdict, exit code)', () => {
    const table = Object.fromEntries(
      REASON_CODES.map((c) => {
        const r = REASONS[c];
        return [c, [r.class, r.retryable, 'action' in r ? r.action : '-', r.verdict, r.exit_code]];
      }),
    );
    expect(table).toEqual({
      server_initializing: ['retryable', true, '-', 'degraded_retryable', 10],
      server_unhealthy: ['retryable', true, 'view_logs', 'degraded_retryable', 10],
      server_disabled: ['fix_state', false, 'enable', 'blocked', 11],
      server_quarantined: ['fix_state', false, 'approve', 'blocked', 11],
      tool_pending_approval: ['fix_state', false, 'approve', 'blocked', 11],
      tool_changed: ['fix_state', false, 'approve', 'blocked', 11],
      tool_blocked_by_user: ['fix_state', false, 'enable', 'blocked', 11],
      oauth_required: ['fix_state', false, 'login', 'blocked', 11],
      hash_mismatch: ['fix_state', false, 'configure', 'blocked', 11],
      server_not_in_scope: ['permanent', false, 'configure', 'blocked', 11],
      tool_denied_by_config: ['permanent', false, 'configure', 'blocked', 11],
      missing_annotation: ['permanent', false, 'configure', 'blocked', 11],
      policy_filtered: ['permanent', false, '-', 'blocked', 11],
      not_found: ['permanent', false, 'configure', 'unknown_ids', 12],
      server_not_configured: ['permanent', false, 'configure', 'unknown_ids', 12],
      server_saturated: ['retryable', true, '-', 'degraded_retryable', 10],
    });
  });
});
