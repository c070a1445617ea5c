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
 * ajv's ESM output still loads its runtime helpers with require(); an ES module has no require,
 * so each distinct module becomes one default import (a CommonJS module's default import is its
 * module.exports, which is what require returned).
 */
export function rewriteRequires(code: string): string {
  const modules = new Map<string, string>();
  const body = code.replace(/require\("([^"]+)"\)/g, (_match, specifier: string) => {
    let local = modules.get(specifier);
    if (local === undefined) {
      local = `runtime${modules.size}`;
      modules.set(specifier, local);
    }
    return local;
  });
  const imports = [...modules].map(([specifier, local]) => `import ${local} from ${JSON.stringify(`${specifier}.js`)};`);
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
