// Small packages written to a temp dir for the unit tests: a complete ESM package that passes
// every check, and the means to break it one way at a time.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PackageManifest, WorkspacePackage } from '../src/workspace-packages.js';

export interface FixtureRoot {
  readonly root: string;
  write(path: string, text: string): void;
  writePackage(dir: string, manifest: Record<string, unknown>, files?: Record<string, string>): WorkspacePackage;
  dispose(): void;
}

export function createFixtureRoot(prefix = 'mcpproxy-release-unit-'): FixtureRoot {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  return {
    root,
    write,
    writePackage: (dir, manifest, files = {}) => {
      write(`${dir}/package.json`, `${JSON.stringify(manifest, null, 2)}\n`);
      for (const [path, text] of Object.entries(files)) write(`${dir}/${path}`, text);
      const m = manifest as PackageManifest;
      return { name: m.name, version: m.version, dir: join(root, dir), manifest: m };
    },
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

export function goodManifest(name = '@fixture/good', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    version: '1.2.3',
    description: 'A package that passes every release check.',
    keywords: ['fixture'],
    type: 'module',
    license: 'MIT',
    engines: { node: '>=20.19' },
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './package.json': './package.json' },
    files: ['dist', 'README.md', 'LICENSE'],
    publishConfig: { access: 'public' },
    ...extra,
  };
}

export const GOOD_FILES: Readonly<Record<string, string>> = {
  'dist/index.js': 'export const answer = 42;\n',
  'dist/index.d.ts': 'export declare const answer = 42;\n',
  'README.md': '# fixture\n',
  LICENSE: 'MIT\n',
};
