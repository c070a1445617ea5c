// The command line of tools/release: `check` and `publish`, with the few switches a maintainer
// or the end-to-end test needs. A usage error is a string, so the caller decides how to exit.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ReleaseOptions {
  readonly command: 'check' | 'publish';
  readonly root: string;
  readonly build: boolean;
  readonly dryRun: boolean;
  readonly registry?: string;
  readonly gitChecks: boolean;
}

export const USAGE = [
  'usage: release check   [--no-build] [--root DIR]',
  '       release publish [--dry-run] [--registry URL] [--no-git-checks] [--no-build] [--root DIR]',
].join('\n');

export function defaultRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
}

export function parseReleaseOptions(argv: readonly string[]): ReleaseOptions | string {
  const [command, ...rest] = argv;
  if (command !== 'check' && command !== 'publish') return USAGE;
  let root = defaultRoot();
  let build = true;
  let dryRun = false;
  let gitChecks = true;
  let registry: string | undefined;
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i];
    const value = (): string | undefined => {
      i += 1;
      return rest[i];
    };
    if (arg === '--no-build') build = false;
    else if (arg === '--dry-run' && command === 'publish') dryRun = true;
    else if (arg === '--no-git-checks' && command === 'publish') gitChecks = false;
    else if (arg === '--registry' && command === 'publish') {
      const url = value();
      if (url === undefined || !/^https?:\/\//.test(url)) return `--registry needs an http(s) URL\n${USAGE}`;
      registry = url;
    } else if (arg === '--root') {
      const dir = value();
      if (dir === undefined) return `--root needs a directory\n${USAGE}`;
      root = resolve(dir);
    } else return `unknown argument: ${arg ?? ''}\n${USAGE}`;
  }
  return { command, root, build, dryRun, gitChecks, ...(registry === undefined ? {} : { registry }) };
}
