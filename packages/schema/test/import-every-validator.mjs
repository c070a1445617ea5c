// Run by plain `node` (no TypeScript, no bundler) against the built package, through its
// exports map: every validator, the registry, the resolved schemas, the OpenAPI document and
// the fixtures must load as ES modules. Prints a JSON summary for esm-import.test.ts.
import { lenientValidators, REASON_CODES, strictValidators, checkValue } from '@mcpproxy/schema';
import openapi from '@mcpproxy/schema/openapi.json' with { type: 'json' };
import strictSchema from '@mcpproxy/schema/schema.strict.json' with { type: 'json' };
import lenientSchema from '@mcpproxy/schema/schema.lenient.json' with { type: 'json' };
import fixtures from '@mcpproxy/schema/fixtures/index.json' with { type: 'json' };

const called = [];
for (const [strength, validators] of [['strict', strictValidators], ['lenient', lenientValidators]]) {
  for (const [name, validate] of Object.entries(validators)) {
    if (typeof validate !== 'function') throw new Error(`${strength}.${name} is not a function`);
    validate({});
    validate('2026-08-19T09:00:00Z');
    called.push(`${strength}.${name}`);
  }
}
const dateTime = checkValue(strictValidators.CheckedAt, 'not a date');
process.stdout.write(
  JSON.stringify({
    called,
    codes: REASON_CODES.length,
    dateTimeRule: dateTime.ok ? null : dateTime.issues[0].rule,
    openapi: openapi.openapi,
    schemaIds: [strictSchema.$id, lenientSchema.$id],
    fixtures: fixtures.valid.length + fixtures.invalid.length,
  }),
);
