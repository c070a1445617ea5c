// Rules the registry must satisfy on its own, beyond its JSON Schema: every column agrees
// with the others, and wording names only placeholders the evaluator fills.
import type { CodegenProblem } from './codegen-error.js';
import { SURFACE_NAMES, WORDING_PLACEHOLDERS, type Registry, type WordingText } from './registry-model.js';

const PLACEHOLDER = /\{([^{}]*)\}/g;

function placeholdersIn(text: string | undefined): string[] {
  return text === undefined ? [] : [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
}

function wordingTexts(code: string, wording: Registry['reasons'][string]['wording']): [string, WordingText][] {
  return [
    [`${code}.wording`, wording],
    ...Object.entries(wording.variants ?? {}).map(([name, text]): [string, WordingText] => [`${code}.wording.variants.${name}`, text]),
  ];
}

export function registryConsistency(registry: Registry, file = 'spec/reasons.json'): CodegenProblem[] {
  const problems: string[] = [];
  const exitCodes = new Map(registry.verdicts.map((v) => [v.verdict, v.exit_code]));
  if (exitCodes.size !== registry.verdicts.length) problems.push('verdicts: a verdict is listed twice');
  registry.verdicts.forEach((v, i) => {
    const previous = registry.verdicts[i - 1];
    if (previous !== undefined && v.exit_code <= previous.exit_code) {
      problems.push(`verdicts: listed best to worst, so exit codes must increase (${previous.verdict} ${previous.exit_code}, ${v.verdict} ${v.exit_code})`);
    }
  });
  const allowed = new Set<string>(WORDING_PLACEHOLDERS);
  const actions = new Set(registry.actions);
  if (!exitCodes.has(registry.unknown_code.verdict)) problems.push(`unknown_code.verdict ${registry.unknown_code.verdict} is not a listed verdict`);
  if (registry.unknown_code.retryable !== (registry.unknown_code.class === 'retryable')) {
    problems.push('unknown_code: retryable must be true exactly when class is retryable');
  }
  for (const [code, r] of Object.entries(registry.reasons)) {
    const expectedExit = exitCodes.get(r.verdict);
    if (expectedExit === undefined) problems.push(`${code}: verdict ${r.verdict} is not a listed verdict`);
    else if (expectedExit !== r.exit_code) problems.push(`${code}: exit_code ${r.exit_code} differs from verdict ${r.verdict}'s ${expectedExit}`);
    if (r.retryable !== (r.class === 'retryable')) problems.push(`${code}: retryable must be true exactly when class is retryable`);
    if (r.class === 'retryable' && r.verdict !== 'degraded_retryable') problems.push(`${code}: a retryable class sets verdict degraded_retryable, not ${r.verdict}`);
    if (r.class !== 'retryable' && r.verdict === 'degraded_retryable') problems.push(`${code}: only a retryable class sets verdict degraded_retryable`);
    if (r.action !== undefined && !actions.has(r.action)) problems.push(`${code}: action ${r.action} is not in actions`);
    for (const a of r.diagnostic_actions ?? []) if (!actions.has(a)) problems.push(`${code}: diagnostic action ${a} is not in actions`);
    if (r.diagnostic_actions !== undefined && (r.action === undefined || !r.diagnostic_actions.includes(r.action))) {
      problems.push(`${code}: diagnostic_actions must include the default action`);
    }
    if (r.since > registry.settings_version) problems.push(`${code}: since ${r.since} is after settings_version ${registry.settings_version}`);
    if (r.deprecated_in !== undefined && (r.deprecated_in > registry.settings_version || r.deprecated_in <= r.since)) {
      problems.push(`${code}: deprecated_in ${r.deprecated_in} must be after since ${r.since} and at most settings_version ${registry.settings_version}`);
    }
    if (r.activated_in !== undefined && (r.activated_in > registry.settings_version || r.activated_in <= r.since)) {
      problems.push(`${code}: activated_in ${r.activated_in} must be after since ${r.since} and at most settings_version ${registry.settings_version}`);
    }
    if (r.replaced_by !== undefined) {
      const replacement = Object.hasOwn(registry.reasons, r.replaced_by) ? registry.reasons[r.replaced_by] : undefined;
      if (replacement === undefined) problems.push(`${code}: replaced_by ${r.replaced_by} is not a code of this registry`);
      else if (r.replaced_by === code) problems.push(`${code}: a code cannot replace itself`);
      else if (replacement.status !== 'active') problems.push(`${code}: replaced_by ${r.replaced_by} must be an active code, not a ${replacement.status} one`);
    }
    if (r.status === 'reserved' && SURFACE_NAMES.some((s) => r.surfaces[s])) problems.push(`${code}: a reserved code is never emitted, so every surface must be false`);
    if (r.status !== 'reserved' && !SURFACE_NAMES.some((s) => r.surfaces[s])) problems.push(`${code}: an emittable code needs at least one surface`);
    for (const [where, text] of wordingTexts(code, r.wording)) {
      for (const name of [...placeholdersIn(text.detail), ...placeholdersIn(text.remediation)]) {
        if (!allowed.has(name)) problems.push(`${where}: placeholder {${name}} is not one of ${WORDING_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`);
      }
    }
    for (const variant of Object.keys(r.wording.variants ?? {})) {
      if (actions.has(variant) && !(r.diagnostic_actions ?? []).includes(variant)) {
        problems.push(`${code}.wording.variants.${variant}: names an action the code cannot take (not in diagnostic_actions)`);
      }
    }
  }
  return problems.map((message) => ({ code: 'registry_inconsistent', message: `${file}: ${message}` }));
}
