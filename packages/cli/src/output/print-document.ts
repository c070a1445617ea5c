import type { CliIo } from '../cli-io.js';
import { machineText, type OutputFormat } from './output-format.js';

/** Prints the document as JSON or YAML, or the command's table. */
export function printDocument(io: CliIo, format: OutputFormat, document: unknown, table: () => string): void {
  io.stdout.write(format === 'table' ? table() : machineText(format, document));
}
