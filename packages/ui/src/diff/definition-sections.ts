import type { ToolDefinition } from '@mcpproxy/schema';
import { lineDiff, type DiffRow } from './line-diff.js';

/** One part of a tool definition compared side by side. */
export interface DefinitionSection {
  readonly title: string;
  readonly rows: readonly DiffRow[];
  readonly changed: boolean;
}

/**
 * The approved and the current definition, part by part (description, input schema, annotations,
 * then title and output schema when either side has them), each as lines: text as written, JSON
 * pretty-printed with sorted keys, so reordered keys never show as a change.
 */
export function definitionSections(approved: ToolDefinition | undefined, current: ToolDefinition | undefined): DefinitionSection[] {
  const parts: [string, (definition: ToolDefinition) => unknown, boolean][] = [
    ['Description', (d) => d.description, true],
    ['Input schema', (d) => d.inputSchema, true],
    ['Annotations', (d) => d.annotations, true],
    ['Title', (d) => d.title, false],
    ['Output schema', (d) => d.outputSchema, false],
  ];
  const sections: DefinitionSection[] = [];
  for (const [title, pick, always] of parts) {
    const left = approved === undefined ? undefined : pick(approved);
    const right = current === undefined ? undefined : pick(current);
    if (!always && left === undefined && right === undefined) continue;
    const rows = lineDiff(linesOf(left), linesOf(right));
    sections.push({ title, rows, changed: rows.some((row) => row.kind !== 'same') });
  }
  return sections;
}

function linesOf(value: unknown): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return value.split(/\r\n|\r|\n/);
  return JSON.stringify(sortedKeys(value), null, 2).split('\n');
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortedKeys(record[key])]));
}
