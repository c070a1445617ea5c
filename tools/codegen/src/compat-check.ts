// The registry's compatibility rules, checked against the newest frozen copy in spec/released/
// and along the released chain: codes are never removed or renamed; a code's semantics never
// change; adding or deprecating a code needs a higher settings_version and its frozen copy;
// rewording passes without a bump.
import type { CodegenProblem } from './codegen-error.js';
import type { ReleasedRegistry } from './load-spec.js';
import type { ReasonSpec, Registry } from './registry-model.js';

const IMMUTABLE: readonly (keyof ReasonSpec)[] = ['class', 'retryable', 'action', 'diagnostic_actions', 'verdict', 'exit_code', 'surfaces', 'since'];

export interface RegistryDiff {
  /** Semantic breaks: never allowed. */
  readonly breaks: readonly string[];
  /** Codes added since the older registry. */
  readonly added: readonly string[];
  /** Codes whose status changed (deprecated, or reserved made active) since the older registry. */
  readonly statusChanged: readonly string[];
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function diffRegistries(older: Registry, newer: Registry): RegistryDiff {
  const breaks: string[] = [];
  if (older.extension !== newer.extension) {
    breaks.push(`extension changed from ${older.extension} to ${newer.extension}: a new extension identifier is a new registry, not a new settings version`);
  }
  for (const action of older.actions) if (!newer.actions.includes(action)) breaks.push(`action ${action} was removed`);
  if (!same(older.verdicts, newer.verdicts)) breaks.push('verdicts or their exit codes changed');
  if (!same(older.unknown_code, newer.unknown_code)) breaks.push('unknown_code changed');
  const statusChanged: string[] = [];
  for (const [code, old] of Object.entries(older.reasons)) {
    // Own entries only: `constructor` and `__proto__` are valid code names, and every object inherits them.
    const current = Object.hasOwn(newer.reasons, code) ? newer.reasons[code] : undefined;
    if (current === undefined) {
      breaks.push(`code ${code} was removed or renamed: codes are never removed or renamed; deprecate it instead (status "deprecated", deprecated_in)`);
      continue;
    }
    for (const field of IMMUTABLE) {
      // TEMP: a reserved code's surfaces change once, when it is activated (replaced by the registry commands).
      if (field === 'surfaces' && old.status === 'reserved' && current.status === 'active') continue;
      if (!same(old[field], current[field])) {
        breaks.push(`code ${code}: ${field} changed from ${JSON.stringify(old[field])} to ${JSON.stringify(current[field])}; it is immutable once released (a semantic change needs a new extension identifier)`);
      }
    }
    if (old.status !== current.status) {
      if (old.status === 'deprecated') breaks.push(`code ${code}: a deprecated code cannot become ${current.status}`);
      else statusChanged.push(code);
    }
  }
  const added = Object.keys(newer.reasons).filter((code) => !Object.hasOwn(older.reasons, code));
  return { breaks, added, statusChanged };
}

function describeChanges(diff: RegistryDiff): string {
  return [
    ...diff.added.map((c) => `added ${c}`),
    ...diff.statusChanged.map((c) => `status of ${c} changed`),
  ].join(', ');
}

/** New codes carry since = the version that adds them; newly deprecated ones deprecated_in = that version. */
function stampProblems(diff: RegistryDiff, newer: Registry, where: string): string[] {
  const problems: string[] = [];
  for (const code of diff.added) {
    const since = newer.reasons[code]?.since;
    if (since !== newer.settings_version) problems.push(`${where}: new code ${code} must have since ${newer.settings_version}, not ${since}`);
  }
  for (const code of diff.statusChanged) {
    const r = newer.reasons[code];
    if (r?.status === 'deprecated' && r.deprecated_in !== newer.settings_version) {
      problems.push(`${where}: code ${code} deprecated now must have deprecated_in ${newer.settings_version}`);
    }
  }
  return problems;
}

/** Each released file against its predecessor, and each file's version against its name. */
export function releasedChainProblems(released: readonly ReleasedRegistry[]): CodegenProblem[] {
  const problems: CodegenProblem[] = [];
  released.forEach((entry, i) => {
    const name = `spec/released/v${entry.version}.json`;
    if (entry.registry.settings_version !== entry.version) {
      problems.push({ code: 'released_chain_broken', message: `${name} holds settings_version ${entry.registry.settings_version}; the file name and the version must agree` });
    }
    const previous = released[i - 1];
    if (previous === undefined) return;
    const diff = diffRegistries(previous.registry, entry.registry);
    for (const b of diff.breaks) problems.push({ code: 'released_chain_broken', message: `${name} against v${previous.version}: ${b}` });
    for (const s of stampProblems(diff, entry.registry, name)) problems.push({ code: 'released_chain_broken', message: s });
  });
  return problems;
}

/** The working registry against the newest released one. */
export function compatProblems(current: Registry, released: readonly ReleasedRegistry[]): CodegenProblem[] {
  const newest = released[released.length - 1];
  const version = current.settings_version;
  if (newest === undefined) {
    return [{ code: 'released_copy_missing', message: `spec/released/ holds no frozen registry: add spec/released/v${version}.json (a copy of spec/reasons.json)` }];
  }
  const diff = diffRegistries(newest.registry, current);
  const problems: CodegenProblem[] = diff.breaks.map((b) => ({
    code: 'compat_broken',
    message: `spec/reasons.json against spec/released/v${newest.version}.json: ${b}`,
  }));
  if (version < newest.version) {
    problems.push({ code: 'compat_broken', message: `spec/reasons.json: settings_version ${version} is lower than the newest released v${newest.version}` });
  } else if (version > newest.version) {
    problems.push({
      code: 'released_copy_missing',
      message: `spec/reasons.json: settings_version ${version} has no frozen copy: add spec/released/v${version}.json (a copy of spec/reasons.json)`,
    });
  } else if (diff.added.length > 0 || diff.statusChanged.length > 0) {
    problems.push({
      code: 'version_bump_needed',
      message: `spec/reasons.json changed codes since spec/released/v${version}.json (${describeChanges(diff)}): adding or deprecating a code needs a new settings version; bump settings_version to ${version + 1} and add spec/released/v${version + 1}.json (a copy of spec/reasons.json)`,
    });
  }
  if (version === newest.version && released.length > 1) {
    const previous = released[released.length - 2];
    if (previous !== undefined) {
      for (const s of stampProblems(diffRegistries(previous.registry, current), current, 'spec/reasons.json')) {
        problems.push({ code: 'compat_broken', message: s });
      }
    }
  }
  return problems;
}
