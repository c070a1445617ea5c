// @arethetypeswrong/cli on the packed tarball with the ESM-only profile: the packages ship no
// CommonJS, so only the node16-from-ESM and bundler resolutions must be right. DefinitelyTyped
// lookups are off: they would reach for the public registry, and every package ships its types.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { captureCommand } from './pnpm-command.js';
import type { ReleaseProblem } from './release-problem.js';

function attwBin(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@arethetypeswrong/cli/package.json');
  const manifest = require(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin['attw'];
  if (bin === undefined) throw new Error('@arethetypeswrong/cli declares no attw binary');
  return join(dirname(manifestPath), bin);
}

export async function attwProblems(name: string, tarball: string, cwd: string): Promise<ReleaseProblem[]> {
  const args = [attwBin(), tarball, '--profile', 'esm-only', '--no-definitely-typed', '--format', 'ascii', '--no-color', '--no-emoji'];
  const result = await captureCommand(process.execPath, args, { cwd });
  if (result.status === 0) return [];
  return [{ code: 'attw', subject: name, message: `attw --profile esm-only failed:\n${(result.stdout + result.stderr).trim()}` }];
}
