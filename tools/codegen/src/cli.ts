#!/usr/bin/env tsx
// `pnpm codegen` checks (exit 1 on any problem), `pnpm codegen:write` regenerates.
// `--root DIR` runs against another checkout (the guards' tests use a temporary copy).
import { runCodegen } from './run-codegen.js';
import { defaultRoot } from './repo-paths.js';

interface CliOptions {
  readonly write: boolean;
  readonly root: string;
}

function parseArgs(argv: readonly string[]): CliOptions | string {
  let write = false;
  let root = defaultRoot();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--write') write = true;
    else if (arg === '--check') write = false;
    else if (arg === '--root') {
      const value = argv[i + 1];
      if (value === undefined) return '--root needs a directory';
      root = value;
      i += 1;
    } else if (arg?.startsWith('--root=')) root = arg.slice('--root='.length);
    else return `unknown argument: ${arg ?? ''}\nusage: cli.ts [--write] [--root DIR]`;
  }
  return { write, root };
}

const options = parseArgs(process.argv.slice(2));
if (typeof options === 'string') {
  process.stderr.write(`${options}\n`);
  process.exit(2);
}
const outcome = await runCodegen(options.root, options.write);
for (const line of outcome.written) process.stdout.write(`wrote ${line}\n`);
for (const note of outcome.notes) process.stderr.write(`[${note.code}] (note, not a failure) ${note.message}\n`);
for (const problem of outcome.problems) process.stderr.write(`[${problem.code}] ${problem.message}\n`);
if (outcome.problems.length > 0) process.exit(1);
process.stdout.write(options.write ? `codegen: ${outcome.written.length} file(s) updated\n` : 'codegen: generated files are up to date\n');
