import type { WordingPlaceholder } from '@mcpproxy/schema';

export type WordingValues = { readonly [P in WordingPlaceholder]?: string };

/**
 * Fills `{placeholder}`s in one pass, so a value that itself contains braces (a caller's ID)
 * is never substituted again. A placeholder without a value stays as written.
 */
export function fillWording(template: string, values: WordingValues): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole: string, name: string) =>
    Object.hasOwn(values, name) ? (values[name as WordingPlaceholder] ?? whole) : whole,
  );
}
