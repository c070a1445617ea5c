// Numbers the payload schema states in more than one place must agree: the rider cap is also
// the check-mode cap, the facet's and result's length limits and Settings.max_tools.
import type { CodegenProblem } from './codegen-error.js';
import type { JsonSchema } from './load-spec.js';
import { defsOf, isSchemaObject } from './schema-node.js';

function at(schema: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (isSchemaObject(node) ? node[key] : undefined), schema);
}

const SAME_AS_RIDER_CAP: readonly (readonly string[])[] = [
  ['Settings', 'properties', 'max_tools', 'const'],
  ['CheckModeArguments', 'properties', 'tool_ids', 'maxItems'],
  ['ResponseFacet', 'properties', 'tools', 'maxItems'],
  ['CheckModeResult', 'properties', 'results', 'maxItems'],
];
const SAME_AS_REST_CAP: readonly (readonly string[])[] = [['RestPreflightResponseShape', 'properties', 'tools', 'maxItems']];

export function schemaConsistency(schema: JsonSchema): CodegenProblem[] {
  const defs = defsOf(schema);
  const problems: CodegenProblem[] = [];
  const check = (capPath: readonly string[], others: readonly (readonly string[])[]): void => {
    const cap = at(defs, capPath);
    for (const path of others) {
      const value = at(defs, path);
      if (value !== undefined && value !== cap) {
        problems.push({
          code: 'spec_invalid',
          message: `spec/required-tools.schema.json: $defs.${path.join('.')} is ${String(value)} but $defs.${capPath.join('.')} is ${String(cap)}; they state the same cap`,
        });
      }
    }
  };
  check(['RequestRider', 'properties', 'tools', 'maxItems'], SAME_AS_RIDER_CAP);
  check(['RestPreflightRequest', 'properties', 'tools', 'maxItems'], SAME_AS_REST_CAP);
  return problems;
}
