import type { Policy, RestPreflightRequest } from '@mcpproxy/schema';
import { REST_MAX_TOOLS } from '@mcpproxy/schema';
import { usageError } from '../cli-error.js';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CONNECTION_OPTIONS } from '../connection/connection-settings.js';
import { OUTPUT_OPTION, outputFormatOf } from '../output/output-format.js';
import { printDocument } from '../output/print-document.js';
import { terminalStyle } from '../output/terminal-style.js';
import { inBandPreflight } from '../preflight/in-band-preflight.js';
import { toolRefsWithPins } from '../preflight/pin-options.js';
import { preflightReport, preflightTable, type PreflightReport } from '../preflight/preflight-report.js';
import { startProgress } from '../preflight/progress-indicator.js';
import { restPreflightAnswer } from '../preflight/rest-preflight-answer.js';
import { parseWaitDuration } from '../preflight/wait-duration.js';
import { restClientFor } from '../rest/command-rest-client.js';
import { ANSWER_TIMEOUT_MS } from '../rest/rest-client.js';

export const toolsPreflight: CommandSpec = {
  words: ['tools', 'preflight'],
  summary: 'Check that required tools are usable right now (exit 0 ready, 10 retry, 11 blocked, 12 unknown ids)',
  usage: '<server:tool>... [options]',
  description: [
    'Asks the gateway whether each tool can be called right now and, if not, why. Nothing is called',
    'upstream and nothing changes. Exit codes: 0 ready, 10 degraded_retryable, 11 blocked,',
    '12 unknown_ids, 1 the command itself failed. The exit code is the worse of the gateway\'s',
    'verdict and the one recomputed here from the per-tool results.',
    '',
    'By default the check goes over REST. With --in-band it goes through MCP instead: the',
    'app.mcpproxy/required-tools rider on tools/list (or describe_tool check mode when the session',
    'cannot carry the rider), at the agent tier, with the same output and exit codes; pins, --wait',
    'and an admin view are REST-only.',
  ].join('\n'),
  options: {
    profile: { type: 'string', label: '--profile P', description: 'Check within this profile (REST: the request\'s profile; --in-band: the /mcp/p/P session)' },
    pin: { type: 'string', multiple: true, label: '--pin ID=HASH', description: 'Require this definition hash, sha256/v<N>:<hex> (repeatable; REST only)' },
    'read-only-only': { type: 'boolean', label: '--read-only-only', description: 'Policy: only tools that declare readOnlyHint: true' },
    'exclude-destructive': { type: 'boolean', label: '--exclude-destructive', description: 'Policy: no tool that may be destructive' },
    'exclude-open-world': { type: 'boolean', label: '--exclude-open-world', description: 'Policy: no tool that reaches an open world' },
    wait: { type: 'string', label: '--wait DURATION', description: 'While the verdict is degraded_retryable, wait up to DURATION (0..10s, e.g. 500ms, 5s) for it to change (REST only)' },
    'in-band': { type: 'boolean', label: '--in-band', description: 'Check through the MCP extension rider instead of REST' },
    'protocol-version': { type: 'string', label: '--protocol-version V', description: 'With --in-band: auto (default), 2025-11-25 or 2026-07-28' },
    ...OUTPUT_OPTION,
    ...CONNECTION_OPTIONS,
  },
  positionals: { min: 1, max: Number.MAX_SAFE_INTEGER, name: 'tool ids (server:tool)' },
  examples: [
    'mcpproxy tools preflight github:create_issue slack:post_message',
    'mcpproxy tools preflight github:create_issue --wait 10s; echo "exit $?"',
    'mcpproxy tools preflight demo:echo --pin demo:echo=sha256/v1:<hex> -o json',
    'mcpproxy tools preflight demo:echo --read-only-only --exclude-open-world',
    'mcpproxy tools preflight demo:echo --in-band --token "$MCPPROXY_TOKEN"',
  ],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const { values, io } = context;
  const ids = context.positionals as readonly [string, ...string[]]; // at least one: positionals.min
  const format = outputFormatOf(values);
  const policy = policyOf(values);
  const pins = (values['pin'] as readonly string[] | undefined) ?? [];
  const waitText = values['wait'] as string | undefined;
  const waitMs = waitText === undefined ? undefined : parseWaitDuration(waitText);
  const profile = values['profile'] as string | undefined;

  let report: PreflightReport;
  if (values['in-band'] === true) {
    if (pins.length > 0) throw usageError('--pin is REST-only: pins are reserved in the extension rider (drop --in-band)');
    if (waitMs !== undefined) throw usageError('--wait is REST-only: the extension rider has no wait budget (drop --in-band)');
    const protocol = values['protocol-version'] as string | undefined;
    report = await inBandPreflight(context, ids, { ...(policy === undefined ? {} : { policy }), ...(profile === undefined ? {} : { profile }), ...(protocol === undefined ? {} : { protocol }) });
  } else {
    if (values['protocol-version'] !== undefined) throw usageError('--protocol-version goes with --in-band');
    if (ids.length > REST_MAX_TOOLS) throw usageError(`too many tool ids: ${ids.length} (at most ${REST_MAX_TOOLS})`);
    const tools = toolRefsWithPins(ids, pins);
    const body: RestPreflightRequest = {
      tools,
      ...(profile === undefined ? {} : { profile }),
      ...(policy === undefined ? {} : { policy }),
      ...(waitMs === undefined ? {} : { wait_ms: waitMs }),
    };
    const client = restClientFor(context);
    const progress = startProgress(io.stderr, `waiting for ${ids.length === 1 ? ids[0] : `${ids.length} tools`}`, waitMs ?? 0);
    try {
      const answer = restPreflightAnswer(await client.call('preflight', { body, timeoutMs: (waitMs ?? 0) + ANSWER_TIMEOUT_MS }));
      report = preflightReport(answer, 'rest', ids);
    } finally {
      progress.stop();
    }
  }
  printDocument(io, format, report, () => preflightTable(report, terminalStyle(io.stdout, io.env)));
  return report.exit_code;
}

function policyOf(values: CommandContext['values']): Policy | undefined {
  const policy: { -readonly [K in keyof Policy]: Policy[K] } = {};
  if (values['read-only-only'] === true) policy.read_only_only = true;
  if (values['exclude-destructive'] === true) policy.exclude_destructive = true;
  if (values['exclude-open-world'] === true) policy.exclude_open_world = true;
  return Object.keys(policy).length === 0 ? undefined : policy;
}
