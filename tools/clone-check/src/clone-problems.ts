import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSiblingFolderReferences } from './sibling-folder-references.js';
import { trackedFiles } from './tracked-files.js';

/**
 * Folders that sit beside the clone on a developer's machine and never on a user's: the team's
 * reading material. Spelled in pieces, as in the tests, so that this file, which the check reads
 * too, holds no name of a folder outside the repository.
 */
export const SIBLING_FOLDERS: readonly string[] = [['sha', 'red'].join('')];

export interface CloneProblem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** Every tracked file's every path into a sibling folder, as problems that say what to do. */
export function cloneProblems(root: string): CloneProblem[] {
  const problems: CloneProblem[] = [];
  for (const file of trackedFiles(root)) {
    const path = join(root, file);
    // A file deleted in the working tree but still in the index is not what a clone will hold.
    if (!existsSync(path)) continue;
    const bytes = readFileSync(path);
    if (bytes.includes(0)) continue;
    const text = bytes.toString('utf8');
    for (const folder of SIBLING_FOLDERS) {
      for (const found of findSiblingFolderReferences(text, folder)) {
        problems.push({
          file,
          line: found.line,
          column: found.column,
          message: `${found.text} reaches for ../${folder}, which a user's clone does not have: copy what it needs into the repository, or cite the document by its title`,
        });
      }
    }
  }
  return problems;
}
