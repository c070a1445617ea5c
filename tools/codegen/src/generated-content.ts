// Which published packages hold files codegen wrote. Every generated file names the command
// that rebuilds it; that line is how one is recognised. A settings version that has not shipped
// needs a minor release of each such package (the release check asks for it, and the registry
// commands write it into the changeset).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REGENERATE_COMMAND } from './generated-banner.js';

const GENERATED_MARK = `regenerate with: ${REGENERATE_COMMAND}`;
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'coverage']);
const TEXT_FILE = /\.(ts|js|mjs|cjs|json|md|ya?ml)$/;

export interface PackageDir {
  readonly name: string;
  readonly dir: string;
}

function firstGeneratedFile(dir: string): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.') || SKIPPED_DIRECTORIES.has(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = firstGeneratedFile(full);
      if (found !== undefined) return found;
    } else if (TEXT_FILE.test(entry.name) && readFileSync(full, 'utf8').includes(GENERATED_MARK)) {
      return full;
    }
  }
  return undefined;
}

/** Packages holding at least one file codegen wrote, with one such file (relative to the package) as evidence. */
export function packagesWithGeneratedContent(packages: readonly PackageDir[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const pkg of packages) {
    const file = firstGeneratedFile(pkg.dir);
    if (file !== undefined) found.set(pkg.name, relative(pkg.dir, file));
  }
  return found;
}

/** The non-private packages under <root>/packages, by name. */
export function publishedPackageDirs(root: string): PackageDir[] {
  const base = join(root, 'packages');
  if (!existsSync(base)) return [];
  return readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(base, entry.name, 'package.json')))
    .flatMap((entry) => {
      const dir = join(base, entry.name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; private?: boolean };
      return manifest.private === true ? [] : [{ name: manifest.name, dir }];
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
