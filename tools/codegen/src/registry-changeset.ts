// The changeset a registry command writes. A settings-version changeset is rebuilt from the
// registry each time (the codes added, deprecated and activated since the version before), so
// a second command before the release amends it instead of adding a second one.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_PACKAGE } from './changeset-check.js';
import { diffRegistries } from './compat-check.js';
import { emittableCodes, SURFACE_NAMES, type ReasonSpec, type Registry } from './registry-model.js';

function surfacesText(r: ReasonSpec): string {
  const on = SURFACE_NAMES.filter((s) => r.surfaces[s]);
  return on.length === SURFACE_NAMES.length ? 'every surface' : on.join(', ');
}

function columns(r: ReasonSpec): string {
  return `${r.class}, ${r.verdict}, exit ${r.exit_code}${r.action === undefined ? '' : `, action ${r.action}`}; ${surfacesText(r)}`;
}

function frontmatter(bumps: ReadonlyMap<string, string>): string {
  return ['---', ...[...bumps].map(([name, bump]) => `"${name}": ${bump}`), '---', ''].join('\n');
}

export function settingsChangesetName(version: number): string {
  return `settings-version-${version}.md`;
}

/** The text of the changeset announcing `current.settings_version`, against the version before it (if any). */
export function settingsChangesetText(previous: Registry | undefined, current: Registry, generatedPackages: readonly string[]): string {
  const reasons = current.reasons;
  const diff = previous === undefined ? { added: emittableCodes(current), statusChanged: [] } : diffRegistries(previous, current);
  const parts: string[] = [];
  for (const code of diff.added) {
    const r = reasons[code];
    if (r !== undefined) parts.push(r.status === 'reserved' ? `reserves ${code} (${r.class}, ${r.verdict}, exit ${r.exit_code}; never emitted yet)` : `adds ${code} (${columns(r)})`);
  }
  for (const code of diff.statusChanged) {
    const r = reasons[code];
    if (r?.status === 'deprecated') parts.push(`deprecates ${code}${r.replaced_by === undefined ? '' : ` (replaced by ${r.replaced_by})`}`);
    else if (r !== undefined) parts.push(`activates ${code} (${columns(r)})`);
  }
  const bumps = new Map([[SCHEMA_PACKAGE, 'minor'], ...generatedPackages.filter((p) => p !== SCHEMA_PACKAGE).map((p): [string, string] => [p, 'minor'])]);
  return `${frontmatter(bumps)}\nReason registry settings version ${current.settings_version}: ${parts.join('; ')}.\n`;
}

export function rewordChangesetName(code: string): string {
  return `reword-${code.replaceAll('_', '-')}.md`;
}

export function rewordChangesetText(code: string, fields: readonly string[]): string {
  return `${frontmatter(new Map([[SCHEMA_PACKAGE, 'patch']]))}\nReason registry: new wording for ${code} (${fields.join(', ')}).\n`;
}

export function writeChangeset(dir: string, name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return `.changeset/${name}`;
}
