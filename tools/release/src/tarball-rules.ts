// What a packed tarball must and must not hold: a README and a licence, the fields a registry
// page and an installer rely on, and nothing of the development tree (tests, TypeScript
// sources, configs, scratch files).
import type { ReleaseProblem } from './release-problem.js';
import type { PackageManifest } from './workspace-packages.js';

const README = /^readme(\.md|\.markdown|\.txt)?$/i;
const LICENSE = /^(license|licence|copying)(\.md|\.txt)?$/i;

const LEFTOVERS: readonly { readonly pattern: RegExp; readonly why: string }[] = [
  { pattern: /(^|\/)(test|tests|__tests__|bench|benchmarks|scratch[^/]*|coverage|node_modules|\.nx)\//, why: 'a development folder' },
  { pattern: /\.(test|spec|bench)(-d)?\.[cm]?[jt]sx?$/, why: 'a test file' },
  { pattern: /(?<!\.d)\.[cm]?tsx?$/, why: 'TypeScript source (ship the compiled .js and .d.ts)' },
  { pattern: /(^|\/)tsconfig[^/]*\.json$/, why: 'a TypeScript project file' },
  { pattern: /(^|\/)(vitest|vite|eslint)\.config\.[cm]?[jt]s$/, why: 'a tool config' },
  { pattern: /\.tsbuildinfo$/, why: 'a compiler cache' },
  { pattern: /(^|\/)\.(env|npmrc)$/, why: 'a local settings file' },
];

function fieldProblems(manifest: PackageManifest): string[] {
  const missing: string[] = [];
  const nonEmptyString = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';
  if (!nonEmptyString(manifest['description'])) missing.push('"description" (the registry page shows it)');
  const keywords = manifest['keywords'];
  if (!Array.isArray(keywords) || keywords.length === 0) missing.push('"keywords" (a non-empty list, for registry search)');
  if (!nonEmptyString(manifest['license'])) missing.push('"license"');
  if (manifest['type'] !== 'module') missing.push('"type": "module" (the packages are ESM-only)');
  const exportsField = manifest['exports'];
  if (typeof exportsField !== 'object' || exportsField === null) missing.push('"exports" (the only entry points consumers may use)');
  const files = manifest['files'];
  if (!Array.isArray(files) || files.length === 0) missing.push('"files" (an allow-list, so nothing else is published)');
  const engines = manifest['engines'] as { node?: unknown } | undefined;
  if (!nonEmptyString(engines?.node)) missing.push('"engines.node"');
  const publishConfig = manifest['publishConfig'] as { access?: unknown } | undefined;
  if (manifest.name.startsWith('@') && publishConfig?.access !== 'public') {
    missing.push('"publishConfig": { "access": "public" } (a scoped package is private on first publish otherwise)');
  }
  return missing;
}

export function tarballProblems(manifest: PackageManifest, paths: readonly string[]): ReleaseProblem[] {
  const subject = manifest.name;
  const problems: ReleaseProblem[] = [];
  const top = paths.filter((p) => !p.includes('/'));
  if (!top.some((p) => README.test(p))) problems.push({ code: 'readme_missing', subject, message: 'the tarball has no README.md (add one to the package and to "files")' });
  if (!top.some((p) => LICENSE.test(p))) problems.push({ code: 'license_missing', subject, message: 'the tarball has no LICENSE (copy the root LICENSE into the package and list it in "files")' });
  for (const path of paths) {
    const leftover = LEFTOVERS.find((l) => l.pattern.test(path));
    if (leftover !== undefined) problems.push({ code: 'leftover_file', subject, message: `${path} is ${leftover.why}; narrow "files" so it is not published` });
  }
  for (const field of fieldProblems(manifest)) problems.push({ code: 'manifest_field', subject, message: `package.json lacks ${field}` });
  return problems;
}
