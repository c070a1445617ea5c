// One registry command, end to end: edit spec/reasons.json, raise the settings version (or
// amend the one not yet released), refresh its frozen copy, write the changeset, regenerate,
// and run the codegen check. Any problem puts the tree back as it was and reports every
// problem the check found.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mentionsVersion } from './changeset-check.js';
import { CodegenError, type CodegenProblem } from './codegen-error.js';
import { packagesWithGeneratedContent, publishedPackageDirs } from './generated-content.js';
import { loadSpec } from './load-spec.js';
import type { ChangeKind, ChangeResult, RegistryFileJson } from './registry-changes.js';
import { rewordChangesetName, rewordChangesetText, settingsChangesetName, settingsChangesetText, writeChangeset } from './registry-changeset.js';
import { repoPaths, type RepoPaths } from './repo-paths.js';
import { runCodegen } from './run-codegen.js';
import { snapshotTree } from './tree-snapshot.js';

/** Everything a command may write; restored as a whole when it fails. */
const WRITTEN_PATHS = ['spec', '.changeset', 'packages/schema/src/generated', 'packages/schema/fixtures', 'packages/schema/openapi.json'];

export type ApplyOutcome =
  | { readonly ok: true; readonly version: number; readonly bumped: boolean; readonly files: readonly string[]; readonly regenerated: readonly string[] }
  | { readonly ok: false; readonly error: string; readonly problems: readonly CodegenProblem[] };

function shipped(paths: RepoPaths, version: number): boolean {
  return existsSync(paths.schemaChangelog) && mentionsVersion(readFileSync(paths.schemaChangelog, 'utf8'), version);
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The settings version a change lands in: the current one while it has not shipped (a second
 * change before the release amends it), else the next one.
 */
export function targetVersion(paths: RepoPaths, current: number): { version: number; bumped: boolean } {
  return shipped(paths, current) ? { version: current + 1, bumped: true } : { version: current, bumped: false };
}

function wordingFields(before: unknown, after: unknown): string[] {
  const a = (before ?? {}) as Record<string, unknown>;
  const b = (after ?? {}) as Record<string, unknown>;
  const fields = ['detail', 'remediation'].filter((f) => a[f] !== b[f]);
  const va = (a['variants'] ?? {}) as Record<string, unknown>;
  const vb = (b['variants'] ?? {}) as Record<string, unknown>;
  for (const name of new Set([...Object.keys(va), ...Object.keys(vb)])) {
    if (JSON.stringify(va[name]) !== JSON.stringify(vb[name])) fields.push(`variant ${name}`);
  }
  return fields;
}

export async function applyChange(
  root: string,
  kind: ChangeKind,
  code: string,
  change: (registry: RegistryFileJson, version: number) => ChangeResult,
): Promise<ApplyOutcome> {
  const paths = repoPaths(root);
  const before = JSON.parse(readFileSync(paths.reasons, 'utf8')) as RegistryFileJson;
  const settings = kind !== 'reword';
  const { version, bumped } = settings ? targetVersion(paths, before.settings_version) : { version: before.settings_version, bumped: false };
  const result = change({ ...before, settings_version: version }, version);
  if (!result.ok) return { ok: false, error: result.error, problems: [] };

  const snapshot = snapshotTree(paths.root, WRITTEN_PATHS);
  try {
    const files = ['spec/reasons.json'];
    writeJson(paths.reasons, result.registry);
    const frozen = join(paths.released, `v${version}.json`);
    // A shipped version's copy is the baseline and stays as released; an unshipped one follows the registry.
    if (settings || (existsSync(frozen) && !shipped(paths, version))) {
      writeJson(frozen, result.registry);
      files.push(`spec/released/v${version}.json`);
    }
    const spec = loadSpec(paths);
    if (settings) {
      const previous = [...spec.released].reverse().find((r) => r.version < version)?.registry;
      const generated = [...packagesWithGeneratedContent(publishedPackageDirs(paths.root)).keys()];
      files.push(writeChangeset(paths.changesets, settingsChangesetName(version), settingsChangesetText(previous, spec.registry, generated)));
    } else {
      const newest = [...spec.released].reverse().find((r) => shipped(paths, r.version))?.registry ?? spec.released.at(-1)?.registry;
      const fields = wordingFields(newest?.reasons[code]?.wording, spec.registry.reasons[code]?.wording);
      files.push(writeChangeset(paths.changesets, rewordChangesetName(code), rewordChangesetText(code, fields.length > 0 ? fields : ['wording'])));
    }
    const written = await runCodegen(paths.root, true);
    const check = written.problems.length > 0 ? written : await runCodegen(paths.root, false);
    if (check.problems.length > 0) {
      snapshot.restore();
      return { ok: false, error: `the change does not pass the codegen check, so nothing was written`, problems: check.problems };
    }
    return { ok: true, version, bumped, files, regenerated: written.written };
  } catch (error) {
    snapshot.restore();
    if (error instanceof CodegenError) return { ok: false, error: 'the change does not load, so nothing was written', problems: [{ code: error.code, message: error.message }] };
    throw error;
  }
}
