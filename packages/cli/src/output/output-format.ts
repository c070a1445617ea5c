import { usageError } from '../cli-error.js';
import type { OptionSpecs, ParsedValues } from '../command-spec.js';
import { yamlText } from './yaml-text.js';

export const OUTPUT_FORMATS = ['table', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const OUTPUT_OPTION: OptionSpecs = {
  output: { type: 'string', short: 'o', label: '-o, --output FORMAT', description: 'table (default), json or yaml' },
};

export function outputFormatOf(values: ParsedValues): OutputFormat {
  const value = values['output'];
  if (value === undefined) return 'table';
  if (typeof value === 'string' && (OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw usageError(`-o/--output: expected table, json or yaml, got ${JSON.stringify(value)}`);
}

/** The machine formats print the document as it is; `table` is the command's own rendering. */
export function machineText(format: Exclude<OutputFormat, 'table'>, document: unknown): string {
  return format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : yamlText(document);
}
