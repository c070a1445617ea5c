import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSiblingFolderReferences } from '../src/sibling-folder-references.js';

// Spelled in pieces so that this file, which the clone check reads too, holds no reference itself.
const F = ['sha', 'red'].join('');
const UP = '.' + '.';

describe('paths into a sibling folder', () => {
  it.each([
    ['a relative path in one string', `import x from '${UP}/${F}/tools/node20-glob.mjs';`],
    ['a deeper one', `const p = "${UP}/${UP}/${F}";`],
    ['a Windows separator', `const p = '${UP}\\\\${F}\\\\x';`],
    ['path segments (the reference this check was written for)', `const G = resolve(REPO_ROOT, '${UP}', '${F}', 'tools', 'node20-glob.mjs');`],
    ['segments further up', `join(ROOT, '${UP}', '${UP}', "${F}")`],
    ['template literals', `join(ROOT, \`${UP}\`, \`${F}\`)`],
    ['a JSON list', `{ "args": ["${UP}", "${F}", "x"] }`],
    ['two strings glued', `ROOT + '${UP}/' + '${F}/x'`],
    ['a shell script', `node "$(dirname "$0")/${UP}/${F}/tools/x.mjs"`],
  ])('finds %s', (_, text) => {
    expect(findSiblingFolderReferences(text, F)).toHaveLength(1);
  });

  it.each([
    ['the word alone', `a ${F} folder; ${F}Config; '${F}'`],
    ['a folder of the repository', `join(ROOT, 'packages', '${F}')`],
    ['a longer name', `'${UP}/${F}-things', '${UP}/${F}_x', '${UP}', '${F}x'`],
    ['the parent alone', `resolve(ROOT, '${UP}')`],
  ])('ignores %s', (_, text) => {
    expect(findSiblingFolderReferences(text, F)).toEqual([]);
  });

  it('says where, 1-based, for every reference in a file', () => {
    const text = `first line\n  const a = '${UP}/${F}';\nx\n\tresolve(R, '${UP}', '${F}')`;
    expect(findSiblingFolderReferences(text, F)).toEqual([
      { line: 2, column: 14, text: `${UP}/${F}` },
      { line: 4, column: 13, text: `'${UP}', '${F}'` },
    ]);
  });

  it('property: a reference is found wherever it is put, among any other text', () => {
    const noise = fc.string({ maxLength: 40 }).filter((s) => !s.includes(UP) && !s.toLowerCase().includes(F.slice(1)));
    const reference = fc.constantFrom(`${UP}/${F}/`, `'${UP}', '${F}'`, `"${UP}","${F}"`, `${UP}/${UP}/${F}`);
    fc.assert(
      fc.property(noise, reference, noise, (before, ref, after) => {
        // A separator after it: the name with a digit appended would be another folder.
        const found = findSiblingFolderReferences(`${before}${ref} ${after}`, F);
        return found.length === 1 && found[0]!.text.includes(F);
      }),
    );
  });
});
