// packages/schema/openapi.json: the hand-written REST paths of spec/rest-api.json with every
// payload $defs entry (strict strength) as components.schemas, so the document and the
// validators can never disagree about a body.
import { CodegenError } from './codegen-error.js';
import { jsonBanner } from './generated-banner.js';
import type { JsonSchema, Spec } from './load-spec.js';
import { jsonText } from './render-source.js';
import type { SchemaSet } from './schema-set.js';
import { defsOf, isSchemaObject } from './schema-node.js';

const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!isSchemaObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' ? value.replace(/^#\/\$defs\//, '#/components/schemas/') : rewriteRefs(value),
    ]),
  );
}

function componentRefs(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => componentRefs(item, into));
  else if (isSchemaObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      const match = key === '$ref' && typeof value === 'string' ? COMPONENT_REF.exec(value) : null;
      if (match?.[1] !== undefined) into.add(match[1]);
      else componentRefs(value, into);
    }
  }
  return into;
}

export function emitOpenApi(spec: Spec, set: SchemaSet): string {
  const restApi = spec.restApi;
  if (restApi === undefined) throw new CodegenError('spec_unreadable', 'spec/rest-api.json is missing: it holds the REST paths of the OpenAPI document');
  const schemas = rewriteRefs(defsOf(set.resolved.strict)) as Record<string, unknown>;
  const { $comment: _comment, components, ...document } = restApi;
  const handWritten = (isSchemaObject(components) ? components : {}) as JsonSchema;
  if ('schemas' in handWritten) {
    throw new CodegenError('spec_invalid', 'spec/rest-api.json: components.schemas is generated from spec/required-tools.schema.json; refer to #/components/schemas/<$defs name> instead');
  }
  const unknown = [...componentRefs(restApi, new Set())].filter((name) => !Object.hasOwn(schemas, name));
  if (unknown.length > 0) {
    throw new CodegenError('spec_invalid', `spec/rest-api.json refers to schemas the payload schema does not define: ${unknown.join(', ')}`);
  }
  return jsonText({
    'x-generated': jsonBanner('spec/rest-api.json, spec/required-tools.schema.json, spec/reasons.json'),
    ...document,
    components: { ...handWritten, schemas },
  });
}
