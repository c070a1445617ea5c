import { parseArgs } from 'node:util';
import { usageError } from './cli-error.js';
import type { CommandSpec, OptionSpecs, ParsedValues } from './command-spec.js';

export interface ParsedCommandLine {
  readonly values: ParsedValues;
  readonly positionals: readonly string[];
}

/**
 * The command's arguments through node:util parseArgs (strict), with its errors reworded into one
 * line that names the flag and the command's help.
 */
export function parseCommandLine(spec: CommandSpec, args: readonly string[], options: { countPositionals?: boolean } = {}): ParsedCommandLine {
  const help = `see: mcpproxy ${spec.words.join(' ')} --help`;
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...args], options: parseArgsOptions(spec.options), strict: true, allowPositionals: true, allowNegative: false });
  } catch (error) {
    throw usageError(`${parseArgsMessage(error)} (${help})`);
  }
  if (options.countPositionals === false) return { values: parsed.values as ParsedValues, positionals: parsed.positionals };
  const { min, max, name } = spec.positionals;
  const count = parsed.positionals.length;
  if (count < min) throw usageError(`missing ${name} (${help})`);
  if (count > max) {
    throw usageError(max === 0 ? `unexpected argument ${JSON.stringify(parsed.positionals[0])} (${help})` : `too many arguments: expected at most ${max} ${name} (${help})`);
  }
  return { values: parsed.values as ParsedValues, positionals: parsed.positionals };
}

function parseArgsOptions(options: OptionSpecs): Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> {
  const out: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, option] of Object.entries(options)) {
    out[name] = { type: option.type, ...(option.short === undefined ? {} : { short: option.short }), ...(option.multiple === true ? { multiple: true } : {}) };
  }
  return out;
}

function parseArgsMessage(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  // Node names the flag as '--name', '-o, --output <value>' or '-x': prefer the long form.
  const flag = /--[\w-]+/.exec(message)?.[0] ?? /'(-\w)/.exec(message)?.[1] ?? '?';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${flag}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      // "argument missing", or "ambiguous" for `--server --all` (the next word looks like a flag).
      return /argument missing|ambiguous/.test(message) ? `option ${flag} needs a value` : `option ${flag} takes no value`;
    default:
      return message.split('\n')[0] ?? message;
  }
}
