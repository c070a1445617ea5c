// A user's clone has nothing beside it. A tracked file that reaches for a sibling folder (the team's
// reading material sits in one beside the developers' clones, see SIBLING_FOLDERS) works only there: the
// path may be written whole (dot-dot, a slash, the folder's name), or built from segments (a
// resolve() call given the parent and the folder as separate arguments). This file spells none of
// them out, so that it passes its own check.

export interface SiblingFolderReference {
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units. */
  readonly column: number;
  /** The matching text, as written. */
  readonly text: string;
}

/** The ways a path into `<parent>/<folder>` gets written in code, config and scripts. */
function patternsFor(folder: string): RegExp[] {
  const name = folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const quote = `['"\`]`;
  return [
    // The parent and the folder in one string or shell word, with either slash, at any depth.
    new RegExp(`\\.\\.[\\\\/]+${name}(?![\\w-])`, 'g'),
    // The parent and the folder as consecutive quoted segments (join, resolve, a JSON or YAML list).
    new RegExp(`${quote}\\.\\.${quote}\\s*,\\s*${quote}${name}${quote}`, 'g'),
    // The parent and the folder glued from two quoted strings with a plus.
    new RegExp(`${quote}\\.\\.[\\\\/]?${quote}\\s*\\+\\s*${quote}[\\\\/]?${name}(?![\\w-])`, 'g'),
  ];
}

/** Every place in `text` that builds a path into the sibling folder `folder`, in order. */
export function findSiblingFolderReferences(text: string, folder: string): SiblingFolderReference[] {
  const found: { index: number; text: string }[] = [];
  for (const pattern of patternsFor(folder)) {
    for (const match of text.matchAll(pattern)) found.push({ index: match.index, text: match[0] });
  }
  found.sort((a, b) => a.index - b.index);
  return found.map(({ index, text: matched }) => {
    const before = text.slice(0, index);
    const line = before.split('\n').length;
    return { line, column: index - before.lastIndexOf('\n'), text: matched };
  });
}
