// Flags of the registry commands: every column has one, so no command asks a question.
// `--name value` and `--name=value` both work; a flag marked repeatable may be given again.

export interface FlagSpec {
  readonly name: string;
  readonly value: string;
  readonly help: string;
  readonly required?: boolean;
  readonly repeatable?: boolean;
}

export type Flags = ReadonlyMap<string, readonly string[]>;

export type ParsedFlags = { readonly ok: true; readonly flags: Flags; readonly help: boolean } | { readonly ok: false; readonly error: string };

export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[]): ParsedFlags {
  const known = new Map(specs.map((s) => [s.name, s]));
  const flags = new Map<string, string[]>();
  let help = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    const match = /^--([a-z][a-z-]*)(?:=([\s\S]*))?$/.exec(arg);
    const spec = match?.[1] === undefined ? undefined : known.get(match[1]);
    if (match === null || spec === undefined) return { ok: false, error: `unknown argument ${JSON.stringify(arg)}` };
    let value = match[2];
    if (value === undefined) {
      value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) return { ok: false, error: `--${spec.name} needs a value (${spec.value})` };
      i += 1;
    }
    const seen = flags.get(spec.name) ?? [];
    if (seen.length > 0 && spec.repeatable !== true) return { ok: false, error: `--${spec.name} is given twice` };
    flags.set(spec.name, [...seen, value]);
  }
  if (!help) {
    const missing = specs.filter((s) => s.required === true && !flags.has(s.name)).map((s) => `--${s.name}`);
    if (missing.length > 0) return { ok: false, error: `missing ${missing.join(', ')}` };
  }
  return { ok: true, flags, help };
}

export function flag(flags: Flags, name: string): string | undefined {
  return flags.get(name)?.[0];
}

export function flagList(flags: Flags, name: string): string[] {
  return (flags.get(name) ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

export function flagHelp(usage: string, summary: string, specs: readonly FlagSpec[]): string {
  const width = Math.max(...specs.map((s) => `--${s.name} ${s.value}`.length));
  const lines = specs.map((s) => `  ${`--${s.name} ${s.value}`.padEnd(width)}  ${s.help}${s.required === true ? ' (required)' : ''}${s.repeatable === true ? ' (repeatable)' : ''}`);
  return [`usage: ${usage}`, '', summary, '', ...lines, `  ${'--help'.padEnd(width)}  this text`, ''].join('\n');
}
