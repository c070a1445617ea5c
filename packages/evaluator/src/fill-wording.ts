import type { WordingPlaceholder } from '@mcpproxy/schema';

export type WordingValues = { readonly [P in WordingPlaceholder]?: string };

function isPlaceholderName(text: string): boolean {
  if (text === '') return false;
  for (let k = 0; k < text.length; k += 1) {
    const code = text.charCodeAt(k);
    if (!((code >= 0x61 && code <= 0x7a) || code === 0x5f)) return false;
  }
  return true;
}

/**
 * Fills `{placeholder}`s (lower-case letters and '_') in one left-to-right pass, so a value that
 * itself contains braces (a caller's ID) is never substituted again. A placeholder without a
 * value stays as written.
 */
export function fillWording(template: string, values: WordingValues): string {
  let out = '';
  let from = 0;
  let open = template.indexOf('{');
  while (open >= 0) {
    const close = template.indexOf('}', open + 1);
    if (close < 0) break;
    const name = template.slice(open + 1, close);
    const value = isPlaceholderName(name) && Object.hasOwn(values, name) ? values[name as WordingPlaceholder] : undefined;
    if (value === undefined) {
      // Not a placeholder we fill: keep the '{' and look again right after it.
      open = template.indexOf('{', open + 1);
      continue;
    }
    out += template.slice(from, open) + value;
    from = close + 1;
    open = template.indexOf('{', from);
  }
  return out + template.slice(from);
}
