/**
 * Rows as aligned columns (two spaces apart, the last column unpadded). Cells are single lines:
 * a newline in a value (an upstream's error text) would break the layout, so it becomes a space.
 */
export function textTable(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const clean = (cell: string) => cell.replace(/\s*[\r\n]+\s*/g, ' ');
  const all = [headers, ...rows].map((row) => row.map(clean));
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
