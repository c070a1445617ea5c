import { terminalSafeLine } from './terminal-safe-line.js';

/**
 * Rows as aligned columns (two spaces apart, the last column unpadded). Cells are single lines a
 * terminal shows literally (terminalSafeLine): a newline in an upstream's error text would break the
 * layout, an escape sequence in a tool name would reach the terminal.
 */
export function textTable(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const all = [headers, ...rows].map((row) => row.map(terminalSafeLine));
  const widths = headers.map((_, column) => Math.max(...all.map((row) => width(row[column] ?? ''))));
  return all.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell + ' '.repeat((widths[column] ?? 0) - width(cell))))
      .join('  ')
      .trimEnd(),
  );
}

/** Display width in code points (good enough for ids and messages; no East Asian wide-cell handling). */
function width(text: string): number {
  return [...text].length;
}
