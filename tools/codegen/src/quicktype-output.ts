// Post-processing of quicktype's TypeScript: markers back to our names and literals, arrays
// readonly, single quotes and two-space indent (the house style, fixed here so the drift
// check is byte-exact), and declarations renamed where an exact type is layered on top.
import { replaceMarkers } from './quicktype-markers.js';

export interface Declaration {
  readonly name: string;
  readonly text: string;
}

const DECLARATION = /^(?:export )?(?:interface|type) ([A-Za-z_$][\w$]*)/m;

/** quicktype separates declarations by blank lines; each keeps its doc comment. */
export function splitDeclarations(source: string): Declaration[] {
  return source
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .flatMap((block) => {
      const match = DECLARATION.exec(block);
      return match?.[1] === undefined ? [] : [{ name: match[1], text: block }];
    });
}

function readonlyArrays(type: string): string {
  if (type.startsWith('[')) return `readonly ${type}`;
  if (/^[\w$.'{}: [\]]+\[\]$/.test(type) && !type.startsWith('readonly ')) return `readonly ${type}`;
  return type;
}

// A typed index signature beside optional members (`pins?: boolean` and `[property: string]: boolean`)
// compiles only under exactOptionalPropertyTypes: a consumer without it reads each optional member as
// `boolean | undefined` and gets TS2411. The index type takes `| undefined` too, which is also true:
// a name the object does not have reads as undefined.
const TYPED_INDEX = /^(\[property: string\]: )(?!unknown;|any;)(.+);$/;

function restyleLine(line: string): string {
  const indent = /^( *)/.exec(line)?.[1]?.length ?? 0;
  const body = line.trimStart();
  // quicktype indents by four; doc comment lines carry one more space.
  const pad = ' '.repeat(Math.floor(indent / 4) * 2 + (indent % 4));
  if (body.startsWith('*') || body.startsWith('/*')) return `${pad}${body}`;
  const member = /^(readonly [^:]+?\??:)\s+(.+);$/.exec(body);
  const index = TYPED_INDEX.exec(body);
  if (index?.[1] !== undefined && index[2] !== undefined) return `${pad}${index[1]}${index[2]} | undefined;`;
  const restyled = member?.[1] !== undefined && member[2] !== undefined ? `${member[1]} ${readonlyArrays(member[2])};` : body;
  return `${pad}${restyled}`.replace(/"([^"'\\]*)"/g, "'$1'");
}

export function restyle(text: string): string {
  return replaceMarkers(text)
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : restyleLine(line)))
    .join('\n');
}

/** Renames a declaration (and its uses in the given declarations); `exported` false drops its export. */
export function renameDeclarations(
  declarations: readonly Declaration[],
  renames: ReadonlyMap<string, { readonly to: string; readonly exported: boolean }>,
): Declaration[] {
  return declarations.map((decl) => {
    let text = decl.text;
    for (const [from, { to, exported }] of renames) {
      text = text.replace(new RegExp(`\\b${from}\\b`, 'g'), to);
      if (decl.name === from && !exported) text = text.replace(/^export (interface|type) /m, '$1 ');
    }
    return { name: renames.get(decl.name)?.to ?? decl.name, text };
  });
}
