// A consumer pinned to the packages of the previous settings version reads answers a newer
// producer made with a code it has never heard of. It must not throw: the lenient validators
// accept the answer, and the code is treated as permanent, non-retryable and blocked.
// argv[2]: a JSON file { code, verdict, facet } written from the new package's fixtures.
import { readFileSync } from 'node:fs';
import { checkValue, lenientValidators, REASON_CODES, reasonTreatment, SETTINGS_VERSION, strictValidators, worstVerdict } from '@mcpproxy/schema';
import { aggregateVerdict } from '@mcpproxy/evaluator';

const answers = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let report;
try {
  const verdict = checkValue(lenientValidators.ToolVerdict, answers.verdict);
  const facet = checkValue(lenientValidators.ResponseFacet, answers.facet);
  const treatment = reasonTreatment(answers.code);
  report = {
    threw: false,
    settings_version: SETTINGS_VERSION,
    knows_code: REASON_CODES.includes(answers.code),
    strict_verdict: checkValue(strictValidators.ToolVerdict, answers.verdict).ok,
    lenient_verdict: verdict.ok,
    lenient_facet: facet.ok,
    treatment,
    // What a client decides for the whole set: the worst verdict over the tools, unknown codes blocked.
    client_verdict: facet.ok ? worstVerdict(facet.value.tools.map((t) => (t.status === 'ready' ? 'ready' : reasonTreatment(t.reason).verdict))) : null,
    evaluator_verdict: aggregateVerdict(answers.facet.tools),
  };
} catch (error) {
  report = { threw: true, error: String(error?.stack ?? error) };
}
process.stdout.write(`${JSON.stringify(report)}\n`);
