// A user of @mcpproxy/evaluator alone: one gateway snapshot, one preflight request with a ready
// tool, a typo and an unknown server. Prints the evaluation as JSON.
import { aggregateVerdict, evaluate, prepareSnapshot } from '@mcpproxy/evaluator';

const hash = `sha256/v1:${'a'.repeat(64)}`;
const github = {
  name: 'github',
  enabled: true,
  quarantined: false,
  connection: { state: 'ready', ever_ready: true },
  tools: new Map([['create_issue', { name: 'create_issue', hash }], ['list_issues', { name: 'list_issues', hash }]]),
  approvals: new Map(['create_issue', 'list_issues'].map((tool) => [tool, { tool, status: 'approved', hash_schema_version: 1, user_disabled: false }])),
  enabled_tools: [],
  disabled_tools: [],
  auto_approve_tool_changes: false,
};
const snapshot = { version: 1, tool_quarantine: true, servers: new Map([['github', github]]), profiles: new Map() };
const request = { tools: [{ id: 'github:create_issue' }, { id: 'github:create_isue' }, { id: 'gitlab:create_issue' }] };
const evaluation = evaluate(prepareSnapshot(snapshot), request, { tier: 'operator', scope: { allowed_servers: '*' } });
process.stdout.write(`${JSON.stringify({ evaluation, unknown_code_verdict: aggregateVerdict([{ status: 'unavailable', reason: 'code_from_a_later_settings_version' }]) })}\n`);
