// packages/schema/src/generated/types.ts: a TypeScript type for every $defs entry of the payload
// schema (both strengths) and of the gateway config schema. Object shapes come from quicktype;
// the verdict shapes get an exact per-code union layered over quicktype's reading, and each
// such union is checked at compile time to fit quicktype's interface and keep its keys.
import { aliasDeclaration, aliasType } from './alias-types.js';
import { defKind, lenientTwins } from './def-kinds.js';
import { didYouMeanCode, exactVerdictType, verdictHelperTypes } from './exact-verdict-types.js';
import { tsBanner } from './generated-banner.js';
import type { Spec } from './load-spec.js';
import { quicktypeInput } from './quicktype-input.js';
import { renameDeclarations, restyle, splitDeclarations, type Declaration } from './quicktype-output.js';
import type { Strength } from './resolve-placeholders.js';
import { runQuicktype, type QuicktypeTopLevel } from './run-quicktype.js';
import { defsOf } from './schema-node.js';
import type { SchemaSet } from './schema-set.js';
import { REGISTRY_OWNED_DEFS, REGISTRY_TYPE_IMPORTS } from './type-placeholders.js';

interface StrengthPlan {
  readonly strength: Strength;
  /** Defs rendered in this strength (all defs for strict, the twins for lenient). */
  readonly defs: readonly string[];
  readonly typeName: (def: string) => string;
}

async function quicktypeDeclarations(
  spec: Spec,
  allDefs: Record<string, unknown>,
  plan: StrengthPlan,
  verdicts: ReadonlySet<string>,
): Promise<Declaration[]> {
  const shaped = plan.defs.filter((def) => {
    const kind = defKind(allDefs[def], allDefs);
    return kind === 'object' || kind === 'verdict';
  });
  const topLevels: QuicktypeTopLevel[] = shaped.map((def) => ({ def, name: def }));
  const schema = quicktypeInput({ defs: allDefs, registry: spec.registry, strength: plan.strength, typeName: plan.typeName });
  const raw = splitDeclarations(await runQuicktype(schema, topLevels));
  // quicktype names a top-level after its $defs key whatever name it is given, so the lenient
  // pass prefixes every name it declared (nested ones too, so they cannot collide with strict ones).
  const prefix = plan.strength === 'lenient' ? 'Lenient' : '';
  const renames = new Map<string, { to: string; exported: boolean }>();
  for (const decl of raw) {
    if (verdicts.has(decl.name) && shaped.includes(decl.name)) {
      renames.set(decl.name, { to: `Quicktype${prefix}${decl.name}`, exported: false });
    } else if (prefix !== '') renames.set(decl.name, { to: `${prefix}${decl.name}`, exported: true });
  }
  return renameDeclarations(raw, renames).map((decl) => ({ name: decl.name, text: restyle(decl.text) }));
}

function typeMap(name: string, doc: string, defs: readonly string[], typeName: (def: string) => string): string {
  return [`/** ${doc} */`, `export interface ${name} {`, ...defs.map((def) => `  readonly ${def}: ${typeName(def)};`), '}', ''].join('\n');
}

export async function emitTypes(spec: Spec, set: SchemaSet): Promise<string> {
  const payloadDefs = defsOf(spec.payloadSchema);
  const allDefs: Record<string, unknown> = { ...payloadDefs, ...defsOf(spec.configSchema) };
  const allNames = [...set.payloadDefs, ...set.configDefs];
  const twins = lenientTwins(set.resolved);
  const verdicts = new Set(allNames.filter((def) => defKind(allDefs[def], allDefs) === 'verdict'));
  const strict: StrengthPlan = { strength: 'strict', defs: allNames, typeName: (def) => def };
  const lenient: StrengthPlan = {
    strength: 'lenient',
    defs: set.payloadDefs.filter((def) => twins.has(def)),
    typeName: (def) => (twins.has(def) ? `Lenient${def}` : def),
  };

  const sections: string[] = [
    tsBanner('spec/required-tools.schema.json, spec/reasons.json, spec/config.schema.json (object shapes via quicktype-core)'),
    `import type { ${[...REGISTRY_TYPE_IMPORTS].sort().join(', ')} } from './registry.js';`,
    '',
    verdictHelperTypes(didYouMeanCode(spec.payloadSchema)),
  ];
  for (const plan of [strict, lenient]) {
    sections.push(`// ---- ${plan.strength}: aliases ----`, '');
    for (const def of plan.defs) {
      const kind = defKind(allDefs[def], allDefs);
      if (kind === 'object' || kind === 'verdict') continue;
      if (plan.strength === 'strict' && REGISTRY_OWNED_DEFS.has(def)) continue;
      sections.push(aliasDeclaration(plan.typeName(def), allDefs[def], aliasType(allDefs[def], spec.registry, plan.strength, plan.typeName)));
    }
    sections.push(`// ---- ${plan.strength}: object shapes (quicktype) ----`, '');
    for (const decl of await quicktypeDeclarations(spec, allDefs, plan, verdicts)) sections.push(decl.text, '');
    sections.push(`// ---- ${plan.strength}: exact verdict unions ----`, '');
    for (const def of plan.defs.filter((d) => verdicts.has(d))) {
      sections.push(
        exactVerdictType({
          def,
          defs: allDefs,
          registry: spec.registry,
          strength: plan.strength,
          typeName: plan.typeName,
          quicktypeName: `Quicktype${plan.typeName(def)}`,
        }),
      );
    }
  }
  sections.push(
    typeMap('StrictTypes', 'The type each strict validator checks, by $defs name.', allNames, strict.typeName),
    typeMap('LenientTypes', 'The type each lenient validator checks, by $defs name.', allNames, lenient.typeName),
  );
  return `${sections.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
