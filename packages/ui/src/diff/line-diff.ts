/** One row of a side-by-side diff: a line on the left, the right, or both. */
export type DiffRow =
  | { readonly kind: 'same'; readonly left: string; readonly right: string }
  | { readonly kind: 'removed'; readonly left: string }
  | { readonly kind: 'added'; readonly right: string }
  | { readonly kind: 'changed'; readonly left: string; readonly right: string };

/** Past this many lines a side is compared as one block: the table would be unreadable anyway. */
const MAX_LINES = 2000;

/**
 * A side-by-side line diff by longest common subsequence: reading the left column of the rows
 * (skipping `added`) gives `left` exactly, the right column gives `right`. A removed line directly
 * followed by an added one is shown as one `changed` row, so a reworded line sits next to its old form.
 */
export function lineDiff(left: readonly string[], right: readonly string[]): DiffRow[] {
  if (left.length > MAX_LINES || right.length > MAX_LINES) {
    return [...left.map((line): DiffRow => ({ kind: 'removed', left: line })), ...right.map((line): DiffRow => ({ kind: 'added', right: line }))];
  }
  // lcs[i][j]: the longest common subsequence of left[i..] and right[j..].
  const lcs: number[][] = Array.from({ length: left.length + 1 }, () => new Array<number>(right.length + 1).fill(0));
  for (let i = left.length - 1; i >= 0; i--) {
    for (let j = right.length - 1; j >= 0; j--) {
      lcs[i]![j] = left[i] === right[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i < left.length && j < right.length && left[i] === right[j]) {
      rows.push({ kind: 'same', left: left[i]!, right: right[j]! });
      i++;
      j++;
    } else if (j < right.length && (i === left.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      rows.push({ kind: 'added', right: right[j]! });
      j++;
    } else {
      rows.push({ kind: 'removed', left: left[i]! });
      i++;
    }
  }
  return pairChanges(rows);
}

/** Each run of removed lines next to a run of added ones becomes changed rows, pairwise. */
function pairChanges(rows: readonly DiffRow[]): DiffRow[] {
  const out: DiffRow[] = [];
  let k = 0;
  while (k < rows.length) {
    if (rows[k]!.kind === 'same') {
      out.push(rows[k]!);
      k++;
      continue;
    }
    const removed: string[] = [];
    const added: string[] = [];
    while (k < rows.length && rows[k]!.kind !== 'same') {
      const row = rows[k]!;
      if (row.kind === 'removed') removed.push(row.left);
      else if (row.kind === 'added') added.push(row.right);
      k++;
    }
    const paired = Math.min(removed.length, added.length);
    for (let p = 0; p < paired; p++) out.push({ kind: 'changed', left: removed[p]!, right: added[p]! });
    for (const line of removed.slice(paired)) out.push({ kind: 'removed', left: line });
    for (const line of added.slice(paired)) out.push({ kind: 'added', right: line });
  }
  return out;
}
