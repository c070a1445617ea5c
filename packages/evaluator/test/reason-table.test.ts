// One hand-written snapshot per cause, with every field of the expected verdict written out
// here (not read from the registry the evaluator itself reads), then checked by the schema
// package's generated strict validators for the tier and surface.
import { REASON_CODES, RIDER_REASON_CODES, checkValue, formatIssues, strictValidators } from '@mcpproxy/schema';
import { describe, expect, it } from 'vitest';
import { evaluate, prepareSnapshot, type GatewaySnapshot, type Policy, type RequestedTool, type Scope, type Tier, type ToolResult } from '../src/index.js';
import { approval, gateway, hashOf, server, tool } from './snapshot-builder.js';

const ALL: Scope = { allowed_servers: '*' };

/** The expected unavailable verdict, fields in wire order. */
function unavailable(
  id: string,
  reason: string,
  retryable: boolean,
  action: string | undefined,
  detail: string,
  remediation: string,
  didYouMean?: string[],
): Record<string, unknown> {
  const result: Record<string, unknown> = { id, status: 'unavailable', reason, retryable };
  if (action !== undefined) result['action'] = action;
  result['detail'] = detail;
  result['remediation'] = remediation;
  if (didYouMean !== undefined) result['did_you_mean'] = didYouMean;
  return result;
}

const main = gateway(
  [
    server('github', {
      tools: [
        tool('get_issue', { readOnlyHint: true, openWorldHint: false }, hashOf('a')),
        tool('list_issues', { readOnlyHint: true, openWorldHint: false }, hashOf('b')),
        tool('create_issue', { readOnlyHint: false, destructiveHint: false, openWorldHint: true }, hashOf('c')),
        tool('delete_repo', { readOnlyHint: false, destructiveHint: true, openWorldHint: false }, hashOf('d')),
        tool('search', undefined, hashOf('e')),
      ],
      invalid_tools: { broken_tool: 'inputSchema: Invalid input: expected object, received null' },
      approvals: [
        approval('get_issue', { approved_hash: hashOf('a'), current_hash: hashOf('a') }),
        approval('old_tool', { current_hash: hashOf('f'), approved_hash: hashOf('9') }),
      ],
    }),
    server('gitlab', { tools: [tool('get_issue')] }),
    server('jira', { tools: [tool('get_issue')] }),
    server('vault', { quarantined: true, tools: [tool('read_secret')] }),
    server('slack', { enabled: false, tools: [tool('post')] }),
    server('notion', {
      tools: [tool('search'), tool('delete_page'), tool('export')],
      enabled_tools: ['search', 'export'],
      disabled_tools: ['export'],
    }),
    server('chat', {
      tools: [tool('post'), tool('edit'), tool('draft'), tool('react')],
      approvals: [
        approval('post', { user_disabled: true }),
        approval('edit', { status: 'changed', approved_hash: hashOf('1'), current_hash: hashOf('2') }),
        approval('draft', { status: 'pending', current_hash: hashOf('3') }),
        approval('react', { status: 'changed', user_disabled: true }),
      ],
    }),
    server('trusting', {
      auto_approve_tool_changes: true,
      tools: [tool('edit')],
      approvals: [approval('edit', { status: 'changed' })],
    }),
    server('linear', { connection: { state: 'pending_auth' }, tools: [tool('list')] }),
    server('broken', {
      connection: { state: 'error', last_error: 'connection refused' },
      tools: [tool('list')],
      // Tools it listed before and no longer does: on a server that is not ready they still exist.
      approvals: [
        approval('older_tool', { approved_hash: hashOf('8') }),
        approval('ghost_tool', {}),
        approval('retired', { status: 'pending', current_hash: hashOf('7') }),
      ],
    }),
    server('gone', { connection: { state: 'disconnected' }, tools: [tool('list')] }),
    server('restartable', { connection: { state: 'error', last_error: 'exit 1', diagnostic_action: 'restart' }, tools: [tool('list')] }),
    server('expired', { connection: { state: 'error', last_error: '401', diagnostic_action: 'login' } }),
    server('logged', { connection: { state: 'disconnected', last_error: 'EOF', diagnostic_action: 'view_logs' } }),
    server('booting', { connection: { state: 'connecting' }, tools: [tool('list')] }),
    server('discovering', { connection: { state: 'discovering' } }),
    server('authenticating', { connection: { state: 'authenticating' } }),
    server('stateless', { connection: { ever_ready: false }, stateless: true }),
    server('busy', { connection: { saturation: { signal: 'HTTP 429', retry_after_s: 30 } }, tools: [tool('list')] }),
    server('throttled', { connection: { saturation: { signal: 'JSON-RPC error -32042' } }, tools: [tool('list')] }),
    server('rebooting', { connection: { state: 'connecting', saturation: { signal: 'HTTP 503' } }, tools: [tool('list')] }),
  ],
  { profiles: { dev: ['github', 'gitlab'], ops: ['jira'] } },
);

// did_you_mean ranking: prefix matches first, then distance, then name; only servable, visible names.
const ranking = gateway([
  server('fs', {
    tools: ['read', 'read_file', 'reads', 'rend', 'bread', 'read_dir', 'real', 'ream', 'reap'].map((name) => tool(name)),
    disabled_tools: ['real'],
    approvals: [approval('ream', { user_disabled: true }), approval('reap', { status: 'pending' })],
  }),
  server('fx', { quarantined: true, tools: [tool('read'), tool('rea')] }),
  server('fz', { enabled: false, tools: [tool('rea')] }),
  server('ft', { tools: [tool('rea')] }),
]);
const fsOnly: Scope = { allowed_servers: ['fs', 'fx', 'fz'] };

interface Case {
  readonly name: string;
  readonly snapshot?: GatewaySnapshot;
  readonly tool: RequestedTool;
  readonly tier: Tier;
  readonly scope?: Scope;
  readonly policy?: Policy;
  readonly expected: Record<string, unknown>;
}

const notFoundRemedy = 'List the tools you can use: mcpproxy tools list';
const malformedDetail = 'Malformed tool id: expected the format <server>:<tool>.';
const malformedRemedy = 'Write the id as <server>:<tool>; list the tools you can use: mcpproxy tools list';
const pinRemedy = 'Review the tool, then update the pin to the hash an operator sees in mcpproxy tools list --server github';
const brokenPinRemedy = 'Review the tool, then update the pin to the hash an operator sees in mcpproxy tools list --server broken';
const unhealthyRemedy = (name: string): string => `Read the server's last error with mcpproxy servers list, then restart it: mcpproxy servers restart ${name}`;
const startingDetail = (name: string): string => `Server ${name} is still starting: connecting to it or discovering its tools.`;

const cases: readonly Case[] = [
  // ready
  { name: 'ready at the operator tier carries the hash', tool: { id: 'github:get_issue' }, tier: 'operator',
    expected: { id: 'github:get_issue', status: 'ready', hash: hashOf('a') } },
  { name: 'ready at the agent tier has no hash', tool: { id: 'github:get_issue' }, tier: 'agent',
    expected: { id: 'github:get_issue', status: 'ready' } },
  { name: 'the id echoes the caller string, halves trimmed for evaluation', tool: { id: ' github : get_issue ' }, tier: 'operator',
    expected: { id: ' github : get_issue ', status: 'ready', hash: hashOf('a') } },
  { name: 'a matching pin is ready', tool: { id: 'github:get_issue', pin: hashOf('a') }, tier: 'agent',
    expected: { id: 'github:get_issue', status: 'ready' } },
  { name: 'gates 8-9 are off for a server that auto-approves tool changes', tool: { id: 'trusting:edit' }, tier: 'operator',
    expected: { id: 'trusting:edit', status: 'ready', hash: hashOf('a') } },
  { name: 'gates 8-9 are off while tool quarantine is off', snapshot: { ...main, tool_quarantine: false }, tool: { id: 'chat:edit' }, tier: 'agent',
    expected: { id: 'chat:edit', status: 'ready' } },
  { name: 'exclude_destructive is skipped for a read-only tool', tool: { id: 'github:get_issue' }, tier: 'agent', policy: { exclude_destructive: true, exclude_open_world: true, read_only_only: true },
    expected: { id: 'github:get_issue', status: 'ready' } },

  // 1-2 and their agent-tier collapse
  { name: 'server_not_configured', tool: { id: 'gthub:get_issue' }, tier: 'operator',
    expected: unavailable('gthub:get_issue', 'server_not_configured', false, 'configure', 'No server named gthub is configured.',
      "Check the server names with mcpproxy servers list, or add gthub to the gateway's configuration file.") },
  { name: 'server_not_configured collapses to not_found at the agent tier', tool: { id: 'gthub:get_issue' }, tier: 'agent',
    expected: unavailable('gthub:get_issue', 'not_found', false, 'configure', 'Tool gthub:get_issue was not found.', notFoundRemedy, ['github:get_issue']) },
  { name: 'server_not_in_scope (allowed_servers)', tool: { id: 'jira:get_issue' }, tier: 'operator', scope: { allowed_servers: ['github', 'gitlab'] },
    expected: unavailable('jira:get_issue', 'server_not_in_scope', false, 'configure', "Server jira is outside the caller's scope.",
      'Use a token whose scope includes the server: mcpproxy tokens create --name NAME --servers jira') },
  { name: 'server_not_in_scope (profile pin)', tool: { id: 'github:get_issue' }, tier: 'operator', scope: { allowed_servers: '*', profile_pin: 'ops' },
    expected: unavailable('github:get_issue', 'server_not_in_scope', false, 'configure', "Server github is outside the caller's scope.",
      'Use a token whose scope includes the server: mcpproxy tokens create --name NAME --servers github') },
  { name: 'server_not_in_scope (a pin naming a deleted profile denies all)', tool: { id: 'github:get_issue' }, tier: 'operator', scope: { allowed_servers: '*', profile_pin: 'deleted' },
    expected: unavailable('github:get_issue', 'server_not_in_scope', false, 'configure', "Server github is outside the caller's scope.",
      'Use a token whose scope includes the server: mcpproxy tokens create --name NAME --servers github') },
  { name: 'server_not_in_scope (active profile)', tool: { id: 'jira:get_issue' }, tier: 'operator', scope: { allowed_servers: '*', active_profile: 'dev' },
    expected: unavailable('jira:get_issue', 'server_not_in_scope', false, 'configure', "Server jira is outside the caller's scope.",
      'Use a token whose scope includes the server: mcpproxy tokens create --name NAME --servers jira') },
  { name: 'server_not_in_scope collapses to not_found at the agent tier, suggesting only visible names', tool: { id: 'jira:get_issue' }, tier: 'agent', scope: { allowed_servers: ['github', 'gitlab'] },
    expected: unavailable('jira:get_issue', 'not_found', false, 'configure', 'Tool jira:get_issue was not found.', notFoundRemedy) },

  // 3-4
  { name: 'server_quarantined', tool: { id: 'vault:read_secret' }, tier: 'agent',
    expected: unavailable('vault:read_secret', 'server_quarantined', false, 'approve', 'Server vault is quarantined until an operator reviews its tools.',
      'Review its tools with mcpproxy tools list --server vault, then approve the server: mcpproxy servers unquarantine vault') },
  { name: 'server_disabled', tool: { id: 'slack:post' }, tier: 'agent',
    expected: unavailable('slack:post', 'server_disabled', false, 'enable', 'Server slack is disabled.', 'Enable it: mcpproxy servers enable slack') },

  // 5
  { name: 'not_found with a prefix suggestion', tool: { id: 'github:list_issue' }, tier: 'agent',
    expected: unavailable('github:list_issue', 'not_found', false, 'configure', 'Tool github:list_issue was not found.', notFoundRemedy, ['github:list_issues']) },
  { name: 'not_found ranks prefix matches first, then distance, then name', snapshot: ranking, tool: { id: 'fs:rea' }, tier: 'agent', scope: fsOnly,
    expected: unavailable('fs:rea', 'not_found', false, 'configure', 'Tool fs:rea was not found.', notFoundRemedy, ['fs:read', 'fs:reads', 'fs:read_dir']) },
  { name: 'not_found ranks a name that is a prefix of the id before a closer typo', snapshot: ranking, tool: { id: 'fs:read_fil' }, tier: 'operator', scope: fsOnly,
    expected: unavailable('fs:read_fil', 'not_found', false, 'configure', 'Tool fs:read_fil was not found.', notFoundRemedy, ['fs:read_file', 'fs:read', 'fs:read_dir']) },
  { name: 'not_found typos at equal distance in name order', snapshot: ranking, tool: { id: 'fs:raed' }, tier: 'agent', scope: fsOnly,
    expected: unavailable('fs:raed', 'not_found', false, 'configure', 'Tool fs:raed was not found.', notFoundRemedy, ['fs:read', 'fs:rend']) },
  { name: 'not_found: an approved tool a ready upstream no longer lists (its approval record alone does not make it exist)', tool: { id: 'github:old_tool' }, tier: 'operator',
    expected: unavailable('github:old_tool', 'not_found', false, 'configure', 'Tool github:old_tool was not found.', notFoundRemedy) },
  { name: 'not_found: an approval record alone does not reach the annotation policy either', tool: { id: 'github:old_tool' }, tier: 'agent', policy: { exclude_open_world: true },
    expected: unavailable('github:old_tool', 'not_found', false, 'configure', 'Tool github:old_tool was not found.', notFoundRemedy) },
  { name: 'not_found names a tool the upstream lists with an invalid definition (no did_you_mean)', tool: { id: 'github:broken_tool' }, tier: 'agent',
    expected: unavailable('github:broken_tool', 'not_found', false, 'configure', 'Tool github:broken_tool is listed by server github with an invalid definition, so the gateway does not serve it.',
      "See what is wrong with it in mcpproxy servers list; the server's author must fix the definition of broken_tool.") },
  { name: 'not_found without a close name has no did_you_mean', tool: { id: 'github:zzzzzz' }, tier: 'operator',
    expected: unavailable('github:zzzzzz', 'not_found', false, 'configure', 'Tool github:zzzzzz was not found.', notFoundRemedy) },
  { name: 'malformed id: no colon', tool: { id: 'github' }, tier: 'operator',
    expected: unavailable('github', 'not_found', false, 'configure', malformedDetail, malformedRemedy) },
  { name: 'malformed id: empty server half', tool: { id: ' :get_issue' }, tier: 'agent',
    expected: unavailable(' :get_issue', 'not_found', false, 'configure', malformedDetail, malformedRemedy) },
  { name: 'malformed id: empty tool half', tool: { id: 'github:  ' }, tier: 'operator',
    expected: unavailable('github:  ', 'not_found', false, 'configure', malformedDetail, malformedRemedy) },

  // 6-9
  { name: 'tool_denied_by_config (not in enabled_tools)', tool: { id: 'notion:delete_page' }, tier: 'agent',
    expected: unavailable('notion:delete_page', 'tool_denied_by_config', false, 'configure',
      'Tool notion:delete_page is denied by the enabled_tools or disabled_tools list of server notion.',
      "Change enabled_tools or disabled_tools of server notion in the gateway's configuration file, then restart the gateway.") },
  { name: 'tool_denied_by_config (in disabled_tools)', tool: { id: 'notion:export' }, tier: 'operator',
    expected: unavailable('notion:export', 'tool_denied_by_config', false, 'configure',
      'Tool notion:export is denied by the enabled_tools or disabled_tools list of server notion.',
      "Change enabled_tools or disabled_tools of server notion in the gateway's configuration file, then restart the gateway.") },
  { name: 'tool_blocked_by_user', tool: { id: 'chat:post' }, tier: 'agent',
    expected: unavailable('chat:post', 'tool_blocked_by_user', false, 'enable', 'Tool chat:post was disabled by an operator.', 'Enable it: mcpproxy tools enable chat:post') },
  { name: 'tool_blocked_by_user outranks tool_changed on one record', tool: { id: 'chat:react' }, tier: 'operator',
    expected: unavailable('chat:react', 'tool_blocked_by_user', false, 'enable', 'Tool chat:react was disabled by an operator.', 'Enable it: mcpproxy tools enable chat:react') },
  { name: 'tool_changed', tool: { id: 'chat:edit' }, tier: 'agent',
    expected: unavailable('chat:edit', 'tool_changed', false, 'approve', 'Tool chat:edit changed after it was approved (rug-pull guard).', 'Review and re-approve it: mcpproxy tools approve chat:edit') },
  { name: 'tool_pending_approval of a tool a server that is not ready listed before (its record still counts)', tool: { id: 'broken:retired' }, tier: 'agent',
    expected: unavailable('broken:retired', 'tool_pending_approval', false, 'approve', "Tool broken:retired was discovered after the server's baseline and awaits review.",
      'Review and approve it: mcpproxy tools approve broken:retired') },
  { name: 'tool_pending_approval', tool: { id: 'chat:draft' }, tier: 'operator',
    expected: unavailable('chat:draft', 'tool_pending_approval', false, 'approve', "Tool chat:draft was discovered after the server's baseline and awaits review.",
      'Review and approve it: mcpproxy tools approve chat:draft') },

  // 10
  { name: 'hash_mismatch: differs (operator names both hashes)', tool: { id: 'github:get_issue', pin: hashOf('c') }, tier: 'operator',
    expected: unavailable('github:get_issue', 'hash_mismatch', false, 'configure', `Pinned ${hashOf('c')} but the tool's current hash is ${hashOf('a')}.`, pinRemedy) },
  { name: 'hash_mismatch: differs (agent gets the generic detail)', tool: { id: 'github:get_issue', pin: hashOf('c') }, tier: 'agent',
    expected: unavailable('github:get_issue', 'hash_mismatch', false, 'configure', 'The pinned hash does not match the current definition of github:get_issue.', pinRemedy) },
  { name: 'hash_mismatch: unparseable pin', tool: { id: 'github:get_issue', pin: 'sha256:abc' }, tier: 'agent',
    expected: unavailable('github:get_issue', 'hash_mismatch', false, 'configure', 'The pin for github:get_issue cannot be parsed: expected sha256/v<N>:<64 hex digits>.', pinRemedy) },
  { name: 'hash_mismatch: uppercase hex does not parse', tool: { id: 'github:get_issue', pin: `sha256/v1:${'A'.repeat(64)}` }, tier: 'operator',
    expected: unavailable('github:get_issue', 'hash_mismatch', false, 'configure', 'The pin for github:get_issue cannot be parsed: expected sha256/v<N>:<64 hex digits>.', pinRemedy) },
  { name: 'hash_mismatch: another hash-schema version', tool: { id: 'github:get_issue', pin: hashOf('a', 2) }, tier: 'operator',
    expected: unavailable('github:get_issue', 'hash_mismatch', false, 'configure', 'The pin for github:get_issue uses hash-schema v2; the gateway stores v1.', pinRemedy) },
  { name: 'hash_mismatch: no stored hash (an approval-only tool of a server that is not ready)', tool: { id: 'broken:ghost_tool', pin: hashOf('a') }, tier: 'agent',
    expected: unavailable('broken:ghost_tool', 'hash_mismatch', false, 'configure', 'The gateway has no stored hash for broken:ghost_tool to compare the pin with.', brokenPinRemedy) },
  { name: 'hash_mismatch: an approval-only tool of a server that is not ready compares with its approved hash when no current one', tool: { id: 'broken:older_tool', pin: hashOf('7') }, tier: 'operator',
    expected: unavailable('broken:older_tool', 'hash_mismatch', false, 'configure', `Pinned ${hashOf('7')} but the tool's current hash is ${hashOf('8')}.`, brokenPinRemedy) },

  // 11-13
  { name: 'oauth_required', tool: { id: 'linear:list' }, tier: 'agent',
    expected: unavailable('linear:list', 'oauth_required', false, 'login', 'Server linear is waiting for login.', 'Log in to the upstream: mcpproxy auth login linear') },
  { name: 'server_unhealthy (error, last error shown)', tool: { id: 'broken:list' }, tier: 'agent',
    expected: unavailable('broken:list', 'server_unhealthy', true, 'view_logs', 'Server broken is unhealthy: connection refused', unhealthyRemedy('broken')) },
  { name: 'server_unhealthy (disconnected, no error recorded)', tool: { id: 'gone:list' }, tier: 'operator',
    expected: unavailable('gone:list', 'server_unhealthy', true, 'view_logs', 'Server gone is unhealthy: no error recorded', unhealthyRemedy('gone')) },
  { name: 'server_unhealthy (diagnosed restart)', tool: { id: 'restartable:list' }, tier: 'agent',
    expected: unavailable('restartable:list', 'server_unhealthy', true, 'restart', 'Server restartable is unhealthy: exit 1', 'Restart the server: mcpproxy servers restart restartable') },
  { name: 'server_unhealthy (diagnosed login; an unknown tool gets the connection verdict)', tool: { id: 'expired:anything' }, tier: 'agent',
    expected: unavailable('expired:anything', 'server_unhealthy', true, 'login', 'Server expired is unhealthy: 401', 'Log in to the upstream again: mcpproxy auth login expired') },
  { name: 'server_unhealthy (diagnosed view_logs)', tool: { id: 'logged:x' }, tier: 'operator',
    expected: unavailable('logged:x', 'server_unhealthy', true, 'view_logs', 'Server logged is unhealthy: EOF', unhealthyRemedy('logged')) },
  { name: 'server_initializing (connecting)', tool: { id: 'booting:list' }, tier: 'agent',
    expected: unavailable('booting:list', 'server_initializing', true, undefined, startingDetail('booting'), 'Retry shortly, or wait for it: mcpproxy tools preflight booting:list --wait 10s') },
  { name: 'server_initializing (discovering, unknown tool)', tool: { id: 'discovering:x' }, tier: 'operator',
    expected: unavailable('discovering:x', 'server_initializing', true, undefined, startingDetail('discovering'), 'Retry shortly, or wait for it: mcpproxy tools preflight discovering:x --wait 10s') },
  { name: 'server_initializing (authenticating)', tool: { id: 'authenticating:x' }, tier: 'agent',
    expected: unavailable('authenticating:x', 'server_initializing', true, undefined, startingDetail('authenticating'), 'Retry shortly, or wait for it: mcpproxy tools preflight authenticating:x --wait 10s') },
  { name: 'server_initializing (no state yet)', tool: { id: 'stateless:x' }, tier: 'agent',
    expected: unavailable('stateless:x', 'server_initializing', true, undefined, startingDetail('stateless'), 'Retry shortly, or wait for it: mcpproxy tools preflight stateless:x --wait 10s') },

  // settings version 2: after the connection gates, before the policy
  { name: 'server_saturated with a Retry-After', tool: { id: 'busy:list' }, tier: 'agent',
    expected: unavailable('busy:list', 'server_saturated', true, undefined, 'Server busy says it is overloaded (HTTP 429): retry after 30 s.', 'Retry later, or wait for it: mcpproxy tools preflight busy:list --wait 10s') },
  { name: 'server_saturated without a Retry-After outranks the annotation policy', tool: { id: 'throttled:list' }, tier: 'operator', policy: { read_only_only: true },
    expected: unavailable('throttled:list', 'server_saturated', true, undefined, 'Server throttled says it is overloaded (JSON-RPC error -32042); the gateway sends it no calls until its backoff ends.',
      'Retry later, or wait for it: mcpproxy tools preflight throttled:list --wait 10s') },
  { name: 'server_saturated does not hide an unknown tool of a ready server', tool: { id: 'busy:nope' }, tier: 'operator',
    expected: unavailable('busy:nope', 'not_found', false, 'configure', 'Tool busy:nope was not found.', notFoundRemedy) },
  { name: 'a server that is not ready gets its connection verdict, saturated or not', tool: { id: 'rebooting:list' }, tier: 'agent',
    expected: unavailable('rebooting:list', 'server_initializing', true, undefined, startingDetail('rebooting'), 'Retry shortly, or wait for it: mcpproxy tools preflight rebooting:list --wait 10s') },

  // 14
  { name: 'missing_annotation (read_only_only, no annotations)', tool: { id: 'github:search' }, tier: 'agent', policy: { read_only_only: true },
    expected: unavailable('github:search', 'missing_annotation', false, 'configure', 'Tool github:search does not declare readOnlyHint, which the read_only_only policy needs.',
      'Drop read_only_only from the policy, or have the server\'s author declare readOnlyHint.') },
  { name: 'missing_annotation (exclude_destructive, hint absent on a non-read-only tool)', tool: { id: 'github:search' }, tier: 'operator', policy: { exclude_destructive: true },
    expected: unavailable('github:search', 'missing_annotation', false, 'configure', 'Tool github:search does not declare destructiveHint, which the exclude_destructive policy needs.',
      'Drop exclude_destructive from the policy, or have the server\'s author declare destructiveHint.') },
  { name: 'policy_filtered (read_only_only, readOnlyHint false)', tool: { id: 'github:create_issue' }, tier: 'agent', policy: { read_only_only: true, exclude_open_world: true },
    expected: unavailable('github:create_issue', 'policy_filtered', false, undefined, 'Tool github:create_issue is excluded by the read_only_only policy (readOnlyHint is false).',
      'Drop read_only_only from the policy if this tool is acceptable.') },
  { name: 'policy_filtered (exclude_destructive)', tool: { id: 'github:delete_repo' }, tier: 'operator', policy: { exclude_destructive: true, exclude_open_world: true },
    expected: unavailable('github:delete_repo', 'policy_filtered', false, undefined, 'Tool github:delete_repo is excluded by the exclude_destructive policy (destructiveHint is true).',
      'Drop exclude_destructive from the policy if this tool is acceptable.') },
  { name: 'policy_filtered (exclude_open_world)', tool: { id: 'github:create_issue' }, tier: 'agent', policy: { exclude_destructive: true, exclude_open_world: true },
    expected: unavailable('github:create_issue', 'policy_filtered', false, undefined, 'Tool github:create_issue is excluded by the exclude_open_world policy (openWorldHint is true).',
      'Drop exclude_open_world from the policy if this tool is acceptable.') },
];

function run(entry: Case): ToolResult {
  const prepared = prepareSnapshot(entry.snapshot ?? main);
  const request = entry.policy === undefined ? { tools: [entry.tool] } : { tools: [entry.tool], policy: entry.policy };
  const evaluation = evaluate(prepared, request, { tier: entry.tier, scope: entry.scope ?? ALL });
  expect(evaluation.tools).toHaveLength(1);
  return evaluation.tools[0]!;
}

function expectValid(name: keyof typeof strictValidators, value: unknown): void {
  const checked = checkValue(strictValidators[name], value);
  if (!checked.ok) expect.fail(`${name}: ${formatIssues(checked.issues)}`);
}

describe('one verdict per cause', () => {
  it.each(cases.map((entry) => [entry.name, entry] as const))('%s', (_name, entry) => {
    const result = run(entry);
    expect(result).toStrictEqual(entry.expected);
    // Same keys in the same (wire) order.
    expect(JSON.stringify(result)).toBe(JSON.stringify(entry.expected));

    if (entry.tier === 'operator') {
      expectValid('RestToolVerdict', result);
    } else {
      expectValid('RestAgentToolVerdict', result);
      const inBand = result.status === 'ready' || (RIDER_REASON_CODES as readonly string[]).includes(result.reason ?? '');
      if (inBand && entry.tool.pin === undefined) {
        expectValid('ToolVerdict', result);
        expectValid('CheckModeToolVerdict', result);
      }
    }
  });

  it('produces every emittable registry code', () => {
    const produced = new Set(cases.map((entry) => run(entry).reason).filter((reason) => reason !== undefined));
    expect([...REASON_CODES].filter((code) => !produced.has(code))).toEqual([]);
  });

  it('an out-of-scope server reads exactly like an unconfigured one at the agent tier', () => {
    const withJira = prepareSnapshot(main);
    const withoutJira = prepareSnapshot({ ...main, servers: new Map([...main.servers].filter(([name]) => name !== 'jira')) });
    const request = { tools: [{ id: 'jira:get_issue' }, { id: 'jira:get_isue' }, { id: 'jira:x' }] };
    const scope: Scope = { allowed_servers: [...main.servers.keys()].filter((name) => name !== 'jira') };
    const outOfScope = evaluate(withJira, request, { tier: 'agent', scope });
    const unconfigured = evaluate(withoutJira, request, { tier: 'agent', scope });
    expect(JSON.stringify(outOfScope)).toBe(JSON.stringify(unconfigured));
    expect(outOfScope.tools.map((result) => result.reason)).toEqual(['not_found', 'not_found', 'not_found']);
  });

  it('computes the set verdict as the worst class present', () => {
    const prepared = prepareSnapshot(main);
    const context = { tier: 'operator', scope: ALL } as const;
    const verdictOf = (...ids: string[]): string => evaluate(prepared, { tools: ids.map((id) => ({ id })) }, context).verdict;
    expect(verdictOf('github:get_issue')).toBe('ready');
    expect(verdictOf('github:get_issue', 'booting:list')).toBe('degraded_retryable');
    expect(verdictOf('booting:list', 'slack:post', 'github:get_issue')).toBe('blocked');
    expect(verdictOf('slack:post', 'github:nope', 'booting:list')).toBe('unknown_ids');
    expect(verdictOf('nope:x')).toBe('unknown_ids');
    expect(evaluate(prepared, { tools: [] }, context).verdict).toBe('ready');
  });
});
