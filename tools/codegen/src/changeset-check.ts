// A settings version that no release of @mcpproxy/schema has shipped must come with a pending
// changeset (at least minor) that announces it and names the codes it adds or deprecates.
// "Shipped" is read from files only, so the check works on a fresh clone: the package's
// CHANGELOG.md mentions "settings version <N>" once changesets has released it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodegenProblem } from './codegen-error.js';
import { diffRegistries } from './compat-check.js';
import type { ReleasedRegistry } from './load-spec.js';
import { emittableCodes, type Registry } from './registry-model.js';
import type { RepoPaths } from './repo-paths.js';

export const SCHEMA_PACKAGE = '@mcpproxy/schema';

export interface Changeset {
  readonly file: string;
  /** Bump per package, from the frontmatter. */
  readonly releases: ReadonlyMap<string, string>;
  readonly body: string;
}

export function parseChangeset(file: string, text: string): Changeset | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (match === null) return undefined;
  const releases = new Map<string, string>();
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const entry = /^\s*["']?([^"':]+(?::[^"':]+)?)["']?\s*:\s*(\w+)\s*$/.exec(line);
    if (entry?.[1] !== undefined && entry[2] !== undefined) releases.set(entry[1].trim(), entry[2]);
  }
  return { file, releases, body: match[2] ?? '' };
}

export function readChangesets(dir: string): Changeset[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.md') && name.toLowerCase() !== 'readme.md')
    .sort()
    .flatMap((name) => {
      const parsed = parseChangeset(name, readFileSync(join(dir, name), 'utf8'));
      return parsed === undefined ? [] : [parsed];
    });
}

export function mentionsVersion(text: string, version: number): boolean {
  return new RegExp(`settings version ${version}(?![0-9])`, 'i').test(text);
}

/** Codes a release of this settings version must name: new or newly deprecated since the previous released version. */
export function codesToAnnounce(current: Registry, released: readonly ReleasedRegistry[]): string[] {
  const previous = [...released].reverse().find((r) => r.version < current.settings_version);
  if (previous === undefined) return emittableCodes(current);
  const diff = diffRegistries(previous.registry, current);
  return [...diff.added, ...diff.statusChanged];
}

export function changesetProblems(paths: RepoPaths, current: Registry, released: readonly ReleasedRegistry[]): CodegenProblem[] {
  const version = current.settings_version;
  const changelog = existsSync(paths.schemaChangelog) ? readFileSync(paths.schemaChangelog, 'utf8') : '';
  if (mentionsVersion(changelog, version)) return [];
  const codes = codesToAnnounce(current, released);
  const candidates = readChangesets(paths.changesets).filter((c) => {
    const bump = c.releases.get(SCHEMA_PACKAGE);
    return (bump === 'minor' || bump === 'major') && mentionsVersion(c.body, version);
  });
  const wordIn = (body: string, code: string): boolean => new RegExp(`(^|[^a-z0-9_])${code}([^a-z0-9_]|$)`).test(body);
  if (candidates.some((c) => codes.every((code) => wordIn(c.body, code)))) return [];
  const closest = candidates[0];
  const missing = closest === undefined ? codes : codes.filter((code) => !wordIn(closest.body, code));
  return [
    {
      code: 'changeset_missing',
      message:
        `settings version ${version} has not shipped (packages/schema/CHANGELOG.md does not mention "settings version ${version}"), ` +
        (closest === undefined
          ? `and no pending changeset announces it: add .changeset/<name>.md with frontmatter "${SCHEMA_PACKAGE}": minor whose body says "settings version ${version}" and names ${codes.join(', ')}`
          : `and .changeset/${closest.file} does not name every code it adds or deprecates: missing ${missing.join(', ')}`),
    },
  ];
}
