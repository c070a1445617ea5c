// A user of @mcpproxy/schema alone: every shipped fixture checked with the strength it names,
// and an answer that carries a code from a later settings version read with the lenient
// validators. Prints one JSON report; the test decides what is right.
// argv[2], optional: another fixtures folder (another version's), checked with these validators.
import { pathToFileURL } from 'node:url';
import { checkValue, lenientValidators, reasonTreatment, SETTINGS_VERSION, strictValidators } from '@mcpproxy/schema';

const json = async (specifier) => (await import(specifier, { with: { type: 'json' } })).default;
const fixtures = process.argv[2] === undefined ? '@mcpproxy/schema/fixtures' : pathToFileURL(process.argv[2]).href;
const index = await json(`${fixtures}/index.json`);
const validators = { strict: strictValidators, lenient: lenientValidators };

const validFailures = [];
for (const entry of index.valid) {
  const fixture = await json(`${fixtures}/${entry.file}`);
  for (const strength of ['strict', 'lenient']) {
    const checked = checkValue(validators[strength][entry.def], fixture.instance);
    if (!checked.ok) validFailures.push({ file: entry.file, strength, issues: checked.issues });
  }
}
const invalidMisses = [];
for (const entry of index.invalid) {
  const fixture = await json(`${fixtures}/${entry.file}`);
  // The index names ajv's own error (keyword and instancePath), so read the validator's errors.
  const validate = validators[entry.strength][entry.def];
  const accepted = validate(fixture.instance);
  const errors = validate.errors ?? [];
  const hit = !accepted && errors.some((e) => e.keyword === entry.error.keyword && e.instancePath === entry.error.instancePath);
  if (!hit) invalidMisses.push({ file: entry.file, result: accepted ? 'accepted' : errors.map((e) => `${e.keyword} at ${e.instancePath}`) });
}

const FUTURE = 'code_from_a_later_settings_version';
const futureVerdict = { id: 'github:create_issue', status: 'unavailable', reason: FUTURE, retryable: true };
const futureFacet = { ...index.example_response_facet, verdict: 'degraded_retryable', tools: [futureVerdict] };
process.stdout.write(
  `${JSON.stringify({
    settings_version: SETTINGS_VERSION,
    fixtures_settings_version: index.settings_version,
    valid_checked: index.valid.length,
    valid_failures: validFailures,
    invalid_checked: index.invalid.length,
    invalid_misses: invalidMisses,
    example_facet_strict: checkValue(strictValidators.ResponseFacet, index.example_response_facet).ok,
    future: {
      strict: checkValue(strictValidators.ToolVerdict, futureVerdict).ok,
      lenient: checkValue(lenientValidators.ToolVerdict, futureVerdict).ok,
      lenient_facet: checkValue(lenientValidators.ResponseFacet, futureFacet).ok,
      treatment: reasonTreatment(FUTURE),
    },
  })}\n`,
);
