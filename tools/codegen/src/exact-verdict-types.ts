// The layer over quicktype for the verdict shapes. quicktype reads a verdict as one interface
// with every field optional; the schema says more: a ready verdict carries only its identity
// (and, on REST, its hash), an unavailable one carries a reason, retryable equals the
// registry's value for that reason, action is the code's default or a diagnostic alternative,
// and did_you_mean belongs to one code. These types say the same, per code, from the registry.
import type { JsonSchema } from './load-spec.js';
import type { Registry } from './registry-model.js';
import type { Strength } from './resolve-placeholders.js';
import { flattenAllOf, isPlaceholder, isSchemaObject, PLACEHOLDER_KEY, refName } from './schema-node.js';
import { tsString } from './render-source.js';
import { placeholderType } from './type-placeholders.js';

const FAILURE_FIELDS = ['reason', 'retryable', 'action', 'detail', 'remediation', 'did_you_mean'] as const;

/** Generic types every verdict layer uses; emitted once. */
export function verdictHelperTypes(didYouMeanCode: string | undefined): string {
  return [
    `type Assert<T extends true> = T;`,
    `type KeysOfUnion<T> = T extends unknown ? keyof T : never;`,
    `type SameKeys<A, B> = [KeysOfUnion<A>] extends [KeysOfUnion<B>] ? ([KeysOfUnion<B>] extends [KeysOfUnion<A>] ? true : false) : false;`,
    '',
    `/** The actions the registry allows with a code: its default and its diagnostic alternatives (never when it has none). */`,
    `export type ReasonActions<C extends RegistryCode> =`,
    `  | ((typeof REASONS)[C] extends { readonly action: infer A } ? A : never)`,
    `  | ((typeof REASONS)[C] extends { readonly diagnostic_actions: readonly (infer D)[] } ? D : never);`,
    '',
    `/** The failure fields of an unavailable verdict with code C, as the registry fixes them. */`,
    `export interface UnavailableFields<C extends RegistryCode> {`,
    `  readonly status: 'unavailable';`,
    `  readonly reason: C;`,
    `  readonly retryable: (typeof REASONS)[C]['retryable'];`,
    `  readonly action?: ReasonActions<C>;`,
    `  readonly detail?: Text;`,
    `  readonly remediation?: Text;`,
    `}`,
    '',
    `/** The failure fields of an unavailable verdict whose code is any well-formed string (what a consumer reads). */`,
    `export interface AnyCodeUnavailableFields<A extends string = string> {`,
    `  readonly status: 'unavailable';`,
    `  readonly reason: string;`,
    `  readonly retryable: boolean;`,
    `  readonly action?: A;`,
    `  readonly detail?: Text;`,
    `  readonly remediation?: Text;`,
    `}`,
    '',
    `/** did_you_mean belongs to ${didYouMeanCode ?? 'no code'} only. */`,
    `export type DidYouMeanField<C extends string> = C extends ${didYouMeanCode === undefined ? 'never' : tsString(didYouMeanCode)}`,
    `  ? { readonly did_you_mean?: DidYouMean }`,
    `  : { readonly did_you_mean?: never };`,
    '',
  ].join('\n');
}

/** The code did_you_mean is restricted to, read from the schema's own rule. */
export function didYouMeanCode(schema: unknown): string | undefined {
  if (Array.isArray(schema)) {
    for (const item of schema) {
      const found = didYouMeanCode(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isSchemaObject(schema)) return undefined;
  const cond = schema['if'];
  const then = schema['then'];
  if (isSchemaObject(cond) && isSchemaObject(then) && JSON.stringify(cond['required']) === '["did_you_mean"]') {
    const reason = (then['properties'] as Record<string, JsonSchema> | undefined)?.['reason'];
    if (typeof reason?.['const'] === 'string') return reason['const'];
  }
  for (const value of Object.values(schema)) {
    const found = didYouMeanCode(value);
    if (found !== undefined) return found;
  }
  return undefined;
}

function propertyType(schema: unknown, typeName: (def: string) => string): string {
  const ref = refName(schema);
  if (ref !== undefined) return typeName(ref);
  if (isSchemaObject(schema) && typeof schema['type'] === 'string') {
    return schema['type'] === 'integer' ? 'number' : schema['type'];
  }
  return 'unknown';
}

/** Names a ready verdict may carry (from the `status: ready` branch's propertyNames), and names an unavailable one may not. */
function statusRules(flat: JsonSchema): { readyAllowed: string[] | undefined; unavailableForbidden: string[] } {
  let readyAllowed: string[] | undefined;
  const unavailableForbidden: string[] = [];
  for (const part of Array.isArray(flat['allOf']) ? flat['allOf'] : []) {
    if (!isSchemaObject(part) || !isSchemaObject(part['if'])) continue;
    const status = (part['if']['properties'] as Record<string, JsonSchema> | undefined)?.['status'];
    if (status?.['const'] !== 'ready') continue;
    const names = (part['then'] as JsonSchema | undefined)?.['propertyNames'] as JsonSchema | undefined;
    if (Array.isArray(names?.['enum'])) readyAllowed = names['enum'] as string[];
    else if (typeof names?.['const'] === 'string') readyAllowed = [names['const']];
    const notRequired = ((part['else'] as JsonSchema | undefined)?.['not'] as JsonSchema | undefined)?.['required'];
    if (Array.isArray(notRequired)) unavailableForbidden.push(...(notRequired as string[]));
  }
  return { readyAllowed, unavailableForbidden };
}

export interface VerdictLayerInput {
  readonly def: string;
  readonly defs: Record<string, unknown>;
  readonly registry: Registry;
  readonly strength: Strength;
  readonly typeName: (def: string) => string;
  /** quicktype's reading of the same def, which the exact type must fit. */
  readonly quicktypeName: string;
}

function members(entries: readonly string[]): string {
  return entries.map((line) => `  ${line}\n`).join('');
}

/** The exact union for one verdict def in one strength (the ready form is emitted with the strict one). */
export function exactVerdictType(input: VerdictLayerInput): string {
  const { def, defs, registry, strength, typeName } = input;
  const flat = flattenAllOf(defs[def], defs);
  const props = (flat['properties'] ?? {}) as Record<string, unknown>;
  const present = Object.keys(props).filter((name) => props[name] !== false);
  const required = new Set(Array.isArray(flat['required']) ? (flat['required'] as string[]) : []);
  const failure = FAILURE_FIELDS.filter((f) => present.includes(f));
  const rules = statusRules(flat);
  const readyFields = present.filter(
    (name) => name !== 'status' && !failure.includes(name as (typeof FAILURE_FIELDS)[number]) && (rules.readyAllowed?.includes(name) ?? true),
  );
  const common = readyFields.filter((name) => !rules.unavailableForbidden.includes(name));
  const readyOnly = readyFields.filter((name) => !common.includes(name));
  const field = (name: string): string =>
    `readonly ${name}${required.has(name) ? '' : '?'}: ${propertyType(props[name], typeName)};`;

  const exportedName = typeName(def);
  const readyName = `Ready${def}`;
  const description = isSchemaObject(defs[def]) && typeof defs[def]['description'] === 'string' ? defs[def]['description'] : undefined;
  const parts: string[] = [];
  if (strength === 'strict') {
    parts.push(
      `/** ${def} when the tool is ready: its identity only${readyOnly.length > 0 ? ` (and ${readyOnly.join(', ')})` : ''}. */`,
      `export interface ${readyName} {\n${members([
        ...common.map(field),
        `readonly status: 'ready';`,
        ...readyOnly.map((name) => `readonly ${name}?: ${propertyType(props[name], typeName)};`),
        ...failure.map((name) => `readonly ${name}?: never;`),
      ])}}`,
      '',
    );
  }
  const base = [...common.map(field), ...readyOnly.map((name) => `readonly ${name}?: never;`)];
  const baseType = base.length === 0 ? '' : `{ ${base.join(' ')} } & `;
  const reason = props['reason'];
  const reasonType = isPlaceholder(reason) ? placeholderType(reason[PLACEHOLDER_KEY], registry, strength) : 'string';
  const actionType = propertyType(props['action'], typeName);
  const hasDidYouMean = failure.includes('did_you_mean');
  let unavailable: string;
  if (reasonType === 'never') unavailable = 'never';
  else if (reasonType === undefined || reasonType === 'string') {
    const dym = hasDidYouMean ? ' & { readonly did_you_mean?: DidYouMean }' : '';
    unavailable = `${baseType}AnyCodeUnavailableFields<${actionType === 'unknown' ? 'string' : actionType}>${dym}`;
  } else {
    const dym = hasDidYouMean ? ' & DidYouMeanField<C>' : '';
    unavailable = `{\n  readonly [C in ${reasonType}]: ${baseType}UnavailableFields<C>${dym};\n}[${reasonType}]`;
  }
  const unavailableName = `Unavailable${exportedName}`;
  parts.push(
    `/** ${exportedName} when the tool is unavailable: one member per reason code. */`,
    `export type ${unavailableName} = ${unavailable};`,
    '',
    ...(description === undefined ? [] : [`/** ${description} */`]),
    `export type ${exportedName} = ${readyName} | ${unavailableName};`,
    `type _${exportedName}FitsQuicktype = Assert<${exportedName} extends ${input.quicktypeName} ? true : false>;`,
    `type _${exportedName}KeepsQuicktypeKeys = Assert<SameKeys<${exportedName}, ${input.quicktypeName}>>;`,
    '',
  );
  return parts.join('\n');
}
