// packages/schema/src/generated/validators.js (+ .d.ts): ajv standalone code for every $defs
// entry in both strengths, so nothing compiles a schema at run time.
import standaloneCode from 'ajv/dist/standalone/index.js';
import { createAjv } from './ajv-instance.js';
import { CodegenError } from './codegen-error.js';
import { tsBanner } from './generated-banner.js';
import { STRENGTHS, type Strength } from './resolve-placeholders.js';
import { schemaIdOf, type SchemaSet } from './schema-set.js';

function exportName(strength: Strength, def: string): string {
  return `${strength}_${def}`;
}

/**
 * ajv's ESM output still loads its runtime helpers with require(), which an ES module does not
 * have. Each `require("m").default` becomes a default import, unwrapped the way require would
 * see it (Node hands a CommonJS module.exports to a default import, bundlers hand its
 * `default`); each `require("m").name` becomes a named import. Any other form fails codegen.
 */
export function rewriteRequires(code: string): string {
  const imports: string[] = [];
  const locals = new Map<string, string>();
  const localFor = (key: string, declare: (local: string) => string): string => {
    let local = locals.get(key);
    if (local === undefined) {
      local = `runtime${locals.size}`;
      locals.set(key, local);
      imports.push(declare(local));
    }
    return local;
  };
  const body = code.replace(/require\("([^"]+)"\)(\.([A-Za-z_$][\w$]*))?/g, (match, specifier: string, _member, name?: string) => {
    const file = JSON.stringify(`${specifier}.js`);
    if (name === undefined) throw new CodegenError('emit_failed', `ajv standalone code uses ${match} in a form codegen does not rewrite`);
    if (name === 'default') {
      return localFor(`${specifier}#default`, (local) =>
        [`import ${local}Module from ${file};`, `const ${local} = ${local}Module && ${local}Module.__esModule ? ${local}Module.default : ${local}Module;`].join('\n'),
      );
    }
    return localFor(`${specifier}#${name}`, (local) => `import { ${name} as ${local} } from ${file};`);
  });
  return `${imports.join('\n')}\n${body}`;
}

function standalone(set: SchemaSet): string {
  const ajv = createAjv();
  const mapping: Record<string, string> = {};
  for (const strength of STRENGTHS) {
    const schema = set.resolved[strength];
    ajv.addSchema(schema);
    const id = schemaIdOf(schema, 'resolved payload schema');
    for (const def of set.payloadDefs) mapping[exportName(strength, def)] = `${id}#/$defs/${def}`;
  }
  if (set.config !== undefined) {
    ajv.addSchema(set.config);
    const id = schemaIdOf(set.config, 'spec/config.schema.json');
    for (const def of set.configDefs) mapping[exportName('strict', def)] = `${id}#/$defs/${def}`;
  }
  try {
    return standaloneCode.default(ajv, mapping);
  } catch (error) {
    throw new CodegenError('emit_failed', `ajv could not compile the schemas: ${(error as Error).message}`);
  }
}

function validatorMap(set: SchemaSet, strength: Strength): string {
  // The config schema has no placeholders: both strengths share its one validator.
  const entries = [
    ...set.payloadDefs.map((def) => `  ${def}: ${exportName(strength, def)},`),
    ...set.configDefs.map((def) => `  ${def}: ${exportName('strict', def)},`),
  ];
  return `export const ${strength}Validators = Object.freeze({\n${entries.join('\n')}\n});\n`;
}

export function emitValidatorsJs(set: SchemaSet): string {
  const code = rewriteRequires(standalone(set))
    .replace(/^"use strict";\s*/m, '')
    // The per-def functions are reached through the two maps below, not exported one by one.
    .replace(/export const ((strict|lenient)_[A-Za-z0-9_]+) = /g, 'const $1 = ')
    .replace(/;(?=const |function )/g, ';\n');
  return [
    tsBanner('spec/required-tools.schema.json (both strengths), spec/reasons.json, spec/config.schema.json'),
    '/* eslint-disable */',
    code.trimEnd(),
    '',
    validatorMap(set, 'strict'),
    validatorMap(set, 'lenient'),
  ].join('\n');
}

export function emitValidatorsDts(set: SchemaSet): string {
  const defs = [...set.payloadDefs, ...set.configDefs];
  return [
    tsBanner('spec/required-tools.schema.json, spec/config.schema.json'),
    `import type { ValidateFunction } from 'ajv';`,
    `import type { LenientTypes, StrictTypes } from './types.js';`,
    '',
    `/** Every $defs name that has a validator. */`,
    `export type DefName =\n${defs.map((d) => `  | '${d}'`).join('\n')};`,
    '',
    `/** Producers: only this settings version's codes, on the surfaces the registry allows. */`,
    `export type StrictValidators = { readonly [K in DefName]: ValidateFunction<StrictTypes[K]> };`,
    `/** Consumers: any well-formed code; known codes still bound to their registry values. */`,
    `export type LenientValidators = { readonly [K in DefName]: ValidateFunction<LenientTypes[K]> };`,
    '',
    `export declare const strictValidators: StrictValidators;`,
    `export declare const lenientValidators: LenientValidators;`,
    '',
  ].join('\n');
}
