// A consumer of the new @mcpproxy/schema: the added code is in the registry constants, the
// strict validators, the OpenAPI document and the fixtures. argv[2]: the code.
import { checkValue, REASON_CODES, REASONS, RIDER_REASON_CODES, SETTINGS_VERSION, strictValidators } from '@mcpproxy/schema';

const code = process.argv[2];
const json = async (specifier) => (await import(specifier, { with: { type: 'json' } })).default;
const openapi = await json('@mcpproxy/schema/openapi.json');
const index = await json('@mcpproxy/schema/fixtures/index.json');
const fixtures = index.valid.filter((f) => f.reason === code);
const rider = fixtures.find((f) => f.surface === 'rider' && f.def === 'ToolVerdict');
const riderFixture = rider === undefined ? undefined : await json(`@mcpproxy/schema/fixtures/${rider.file}`);
const strictOk = [];
for (const entry of fixtures) {
  const fixture = await json(`@mcpproxy/schema/fixtures/${entry.file}`);
  strictOk.push(checkValue(strictValidators[entry.def], fixture.instance).ok);
}
process.stdout.write(
  `${JSON.stringify({
    settings_version: SETTINGS_VERSION,
    reason_codes: REASON_CODES,
    in_rider_codes: RIDER_REASON_CODES.includes(code),
    registry_entry: REASONS[code] ?? null,
    openapi_mentions: JSON.stringify(openapi).includes(`"${code}"`),
    fixtures: fixtures.map((f) => f.file),
    fixtures_strict_ok: strictOk,
    rider_instance: riderFixture?.instance ?? null,
    example_response_facet: index.example_response_facet,
  })}\n`,
);
