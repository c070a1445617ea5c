// Every path codegen reads or writes, relative to one repository root. The root defaults to
// the checkout this script lives in, so the command works from any cwd; tests pass --root to
// run the same guards on a temporary copy.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RepoPaths {
  readonly root: string;
  readonly spec: string;
  readonly reasons: string;
  readonly reasonsSchema: string;
  readonly payloadSchema: string;
  readonly configSchema: string;
  readonly restApi: string;
  readonly released: string;
  readonly examples: string;
  readonly schemaPackage: string;
  readonly changesets: string;
  readonly schemaChangelog: string;
}

export function defaultRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
}

export function repoPaths(root: string = defaultRoot()): RepoPaths {
  const abs = resolve(root);
  const spec = join(abs, 'spec');
  const schemaPackage = join(abs, 'packages', 'schema');
  return {
    root: abs,
    spec,
    reasons: join(spec, 'reasons.json'),
    reasonsSchema: join(spec, 'reasons.schema.json'),
    payloadSchema: join(spec, 'required-tools.schema.json'),
    configSchema: join(spec, 'config.schema.json'),
    restApi: join(spec, 'rest-api.json'),
    released: join(spec, 'released'),
    examples: join(spec, 'examples'),
    schemaPackage,
    changesets: join(abs, '.changeset'),
    schemaChangelog: join(schemaPackage, 'CHANGELOG.md'),
  };
}
