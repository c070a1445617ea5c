#!/usr/bin/env tsx
// `pnpm registry <add|deprecate|activate|reword> [flags]`: one registry change in one step,
// without questions. `--root DIR` runs it on another checkout (the tests use a scratch copy).
import { activateCode, addCode, deprecateCode, rewordCode, type ChangeKind, type ChangeResult, type RegistryFileJson } from './registry-changes.js';
import { applyChange } from './registry-apply.js';
import { flag, flagHelp, parseFlags, type FlagSpec, type Flags } from './registry-flags.js';
import { handwork } from './registry-handwork.js';
import { defaultRoot } from './repo-paths.js';

const ROOT: FlagSpec = { name: 'root', value: 'DIR', help: 'the checkout to change (default: this one)' };
const CODE: FlagSpec = { name: 'code', value: 'CODE', help: 'the reason code', required: true };
const WORDING: FlagSpec[] = [
  { name: 'detail', value: 'TEXT', help: 'wording.detail; placeholders such as {server} {tool} {id} are filled by the evaluator' },
  { name: 'remediation', value: 'TEXT', help: 'wording.remediation; name only commands that exist' },
  { name: 'variant-detail', value: 'NAME=TEXT', help: 'wording.variants.NAME.detail', repeatable: true },
  { name: 'variant-remediation', value: 'NAME=TEXT', help: 'wording.variants.NAME.remediation', repeatable: true },
];

interface Command {
  readonly summary: string;
  readonly flags: readonly FlagSpec[];
  readonly change: (registry: RegistryFileJson, flags: Flags, version: number) => ChangeResult;
}

const COMMANDS: Readonly<Record<ChangeKind, Command>> = {
  add: {
    summary:
      'Adds a reason code, stamped since the settings version it lands in: the next one when the current one has shipped (packages/schema/CHANGELOG.md names it), else the current one, amended. retryable derives from --class, exit_code from --verdict.',
    flags: [
      CODE,
      { name: 'class', value: 'retryable|fix_state|permanent', help: 'the reason class', required: true },
      { name: 'verdict', value: 'VERDICT', help: 'the set verdict it gives (default for a retryable class: degraded_retryable)' },
      { name: 'action', value: 'ACTION', help: 'the default health action (leave out for none)' },
      { name: 'diagnostic-actions', value: 'A,B', help: 'actions the evaluator may pick instead, from diagnostics (include the default)' },
      { name: 'surfaces', value: 'all|none|S,S', help: 'where it may appear: rest_operator, rest_agent, rider, check, resolve' },
      { name: 'status', value: 'active|reserved', help: 'reserved registers it with every surface off, for activation later (default active)' },
      { name: 'detail', value: 'TEXT', help: 'wording.detail', required: true },
      { name: 'remediation', value: 'TEXT', help: 'wording.remediation; name only commands that exist', required: true },
      ...WORDING.slice(2),
      ROOT,
    ],
    change: addCode,
  },
  deprecate: {
    summary: 'Deprecates a code (it stays in the registry, the types and the validators for ever), stamped deprecated_in the settings version it lands in.',
    flags: [CODE, { name: 'replaced-by', value: 'CODE', help: 'the active code that replaces it' }, ROOT],
    change: deprecateCode,
  },
  activate: {
    summary:
      "Activates a reserved code: its surfaces change this once (activated_in records the settings version); class, retryable, verdict, exit code, action and wording stay what the reservation said (reword separately).",
    flags: [CODE, { name: 'surfaces', value: 'all|S,S', help: 'where it may appear from now on', required: true }, ROOT],
    change: activateCode,
  },
  reword: {
    summary: 'Rewords a code: no new settings version, a patch changeset. A released frozen copy keeps its wording; an unreleased one follows.',
    flags: [CODE, ...WORDING, ROOT],
    change: (registry, flags) => rewordCode(registry, flags),
  },
};

const USAGE = `usage: pnpm registry <add|deprecate|activate|reword> [flags]   (pnpm registry <command> --help for its flags)\n`;

function isKind(name: string | undefined): name is ChangeKind {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === undefined) {
    process.stdout.write(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (!isKind(name)) {
    process.stderr.write(`unknown command ${JSON.stringify(name)}\n${USAGE}`);
    return 2;
  }
  const command = COMMANDS[name];
  const parsed = parseFlags(rest, command.flags);
  if (!parsed.ok) {
    process.stderr.write(`registry ${name}: ${parsed.error}\n${flagHelp(`pnpm registry ${name} [flags]`, command.summary, command.flags)}`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(flagHelp(`pnpm registry ${name} [flags]`, command.summary, command.flags));
    return 0;
  }
  const code = flag(parsed.flags, 'code') ?? '';
  const outcome = await applyChange(flag(parsed.flags, 'root') ?? defaultRoot(), name, code, (registry, version) => command.change(registry, parsed.flags, version));
  if (!outcome.ok) {
    process.stderr.write(`registry ${name}: ${outcome.error}\n`);
    for (const p of outcome.problems) process.stderr.write(`[${p.code}] ${p.message}\n`);
    return 1;
  }
  const where = name === 'reword' ? 'no new settings version' : outcome.bumped ? `settings version ${outcome.version} (new)` : `settings version ${outcome.version} (amended; not released yet)`;
  process.stdout.write(`registry ${name} ${code}: ${where}\n`);
  for (const file of outcome.files) process.stdout.write(`wrote ${file}\n`);
  process.stdout.write(`regenerated ${outcome.regenerated.length} file(s) of packages/schema; pnpm codegen passes\n`);
  process.stdout.write('\nLeft for you to write by hand:\n');
  const status = (flag(parsed.flags, 'status') ?? 'active');
  for (const item of handwork(name, code, status)) process.stdout.write(`  - ${item}\n`);
  return 0;
}

process.exit(await main(process.argv.slice(2)));
