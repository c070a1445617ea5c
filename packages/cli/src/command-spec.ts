import type { CliIo } from './cli-io.js';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** Shown in --help, e.g. "--server S". */
  readonly label: string;
  readonly description: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export type ParsedValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

export interface CommandContext {
  readonly values: ParsedValues;
  readonly positionals: readonly string[];
  readonly io: CliIo;
}

/** One leaf command: its words, help text, options and what it does. Exit code on success. */
export interface CommandSpec {
  readonly words: readonly string[];
  readonly summary: string;
  /** After "mcpproxy <words> ", e.g. "<server:tool>... [options]". */
  readonly usage: string;
  /** A paragraph or two for --help. */
  readonly description?: string;
  readonly options: OptionSpecs;
  readonly positionals: { readonly min: number; readonly max: number; readonly name: string };
  readonly examples: readonly string[];
  run(context: CommandContext): Promise<number>;
}
