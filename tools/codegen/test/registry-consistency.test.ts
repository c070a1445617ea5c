import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/load-spec.js';
import type { Registry } from '../src/registry-model.js';
import { registryConsistency } from '../src/registry-consistency.js';
import { repoPaths } from '../src/repo-paths.js';

// As loaded: the derived columns (retryable, exit_code) filled in from class and verdict.
const registry = loadSpec(repoPaths()).registry;

/** A code made reserved for the cases about reserved codes: the registry itself may have none left. */
const RESERVED = 'server_saturated';
const AS_RESERVED = { status: 'reserved', activated_in: undefined, surfaces: { rest_operator: false, rest_agent: false, rider: false, check: false, resolve: false } };

function withReason(code: string, patch: Record<string, unknown>): Registry {
  const copy = structuredClone(registry) as unknown as { reasons: Record<string, Record<string, unknown>> };
  const reserved = copy.reasons[RESERVED]!;
  Object.assign(reserved, AS_RESERVED);
  delete reserved['activated_in'];
  Object.assign(copy.reasons[code]!, patch);
  return copy as unknown as Registry;
}

describe('registry self-consistency', () => {
  it('holds for spec/reasons.json, and with its one test code made reserved', () => {
    expect(registryConsistency(registry)).toEqual([]);
    expect(registryConsistency(withReason(RESERVED, {}))).toEqual([]);
  });

  it.each([
    ['exit code against the verdict', 'tool_changed', { exit_code: 12 }, "exit_code 12 differs from verdict blocked's 11"],
    ['retryable against the class', 'tool_changed', { retryable: true }, 'retryable must be true exactly when class is retryable'],
    ['retryable class against the verdict', 'server_initializing', { verdict: 'blocked', exit_code: 11 }, 'a retryable class sets verdict degraded_retryable'],
    ['default action in the vocabulary', 'tool_changed', { action: 'reboot' }, 'action reboot is not in actions'],
    ['diagnostic actions include the default', 'server_unhealthy', { diagnostic_actions: ['restart', 'login'] }, 'diagnostic_actions must include the default action'],
    ['a reserved code has no surface', RESERVED, { surfaces: { rest_operator: true, rest_agent: false, rider: false, check: false, resolve: false } }, 'a reserved code is never emitted'],
    ['wording placeholders', 'tool_changed', { wording: { detail: 'Tool {tool_name} changed.', remediation: 'x' } }, 'placeholder {tool_name} is not one of'],
    ['since not after the settings version', 'tool_changed', { since: registry.settings_version + 1 }, `since ${registry.settings_version + 1} is after settings_version ${registry.settings_version}`],
    ['activated_in after since', 'tool_changed', { activated_in: 1 }, 'activated_in 1 must be after since 1'],
    ['a replacement that exists', 'tool_changed', { status: 'deprecated', deprecated_in: 2, replaced_by: 'tool_renamed' }, 'replaced_by tool_renamed is not a code of this registry'],
    ['a replacement that is active', 'tool_changed', { status: 'deprecated', deprecated_in: 2, replaced_by: RESERVED }, 'must be an active code, not a reserved one'],
  ])('checks %s', (_name, code, patch, message) => {
    const problems = registryConsistency(withReason(code, patch));
    expect(problems.map((p) => p.code)).toContain('registry_inconsistent');
    expect(problems.map((p) => p.message).join('\n')).toContain(message);
  });
});
