import { toolIdKey } from '@mcpproxy/evaluator';
import { reasonTreatment, VERDICT_EXIT_CODES, VERDICTS, worstVerdict, type Verdict } from '@mcpproxy/schema';
import type { WireToolVerdict } from '@mcpproxy/client';
import { CliError } from '../cli-error.js';
import { terminalSafeLine } from '../output/terminal-safe-line.js';
import { textTable } from '../output/text-table.js';
import type { TerminalStyle } from '../output/terminal-style.js';

/** One tool's result as any carriage delivers it (read leniently), plus the operator tier's hash over REST. */
export type ReportTool = WireToolVerdict & { readonly hash?: string };

export type Carriage = 'rest' | 'rider' | 'check';

/**
 * The document `tools preflight -o json|yaml` prints (documented in the README): the gateway's
 * answer plus the exit code and the carriage that answered.
 */
export interface PreflightReport {
  readonly verdict: Verdict;
  readonly exit_code: number;
  readonly checked_at: string;
  readonly request_id: string;
  readonly waited_ms?: number;
  readonly carriage: Carriage;
  readonly tools: readonly ReportTool[];
}

export interface PreflightAnswer {
  readonly verdict: unknown;
  readonly checked_at: string;
  readonly request_id: string;
  readonly waited_ms?: number;
  readonly tools: readonly ReportTool[];
}

/**
 * The report of an answer. The exit code is the worse of the gateway's set verdict and the one
 * recomputed here from the per-tool results (unknown reason codes count as blocked), so a gateway
 * that says "ready" next to an unavailable tool cannot make a CI job pass; nor can one that leaves a
 * requested tool out (compared by the gateway's dedup key: both halves trimmed).
 */
export function preflightReport(answer: PreflightAnswer, carriage: Carriage, requested: readonly string[]): PreflightReport {
  if (!(VERDICTS as readonly unknown[]).includes(answer.verdict)) {
    throw new CliError('invalid_answer', `the gateway answered an unknown verdict ${JSON.stringify(answer.verdict)}`);
  }
  const answered = new Set(answer.tools.map((tool) => toolIdKey(tool.id)));
  const missing = [...new Set(requested.map(toolIdKey))].filter((key) => !answered.has(key));
  if (missing.length > 0) {
    throw new CliError('invalid_answer', `the gateway's answer has no result for ${missing.map((key) => JSON.stringify(key)).join(', ')}`);
  }
  const local = worstVerdict(answer.tools.map((tool) => (tool.status === 'ready' ? 'ready' : reasonTreatment(tool.reason ?? '').verdict)));
  const verdict = worstVerdict([answer.verdict as Verdict, local]);
  return {
    verdict,
    exit_code: VERDICT_EXIT_CODES[verdict],
    checked_at: answer.checked_at,
    request_id: answer.request_id,
    ...(answer.waited_ms === undefined ? {} : { waited_ms: answer.waited_ms }),
    carriage,
    tools: answer.tools,
  };
}

/**
 * The table form exactly as preflight-facts section 8 gives it: VERDICT / CHECKED / optional WAITED
 * lines, the columns, the summary. The request id is in `-o json|yaml` (for `activity list --request-id`).
 */
export function preflightTable(report: PreflightReport, style: TerminalStyle): string {
  const head = [
    style.verdict(`VERDICT: ${report.verdict} (exit ${report.exit_code})`, report.verdict),
    `CHECKED: ${terminalSafeLine(report.checked_at)}`,
    ...(report.waited_ms === undefined ? [] : [`WAITED: ${report.waited_ms}ms`]),
  ];
  const rows = report.tools.map((tool) => [
    tool.id,
    tool.status,
    tool.reason ?? '-',
    tool.status === 'ready' || tool.retryable === undefined ? '-' : String(tool.retryable),
    tool.action ?? '-',
    detailCell(tool),
  ]);
  const table = textTable(['ID', 'STATUS', 'REASON', 'RETRYABLE', 'ACTION', 'DETAIL'], rows);
  return `${[...head, '', ...table, '', terminalSafeLine(summaryLine(report.tools))].join('\n')}\n`;
}

/** "2 of 5 tools unavailable: server_disabled, not_found" (reasons in order of first appearance). */
export function summaryLine(tools: readonly ReportTool[]): string {
  const unavailable = tools.filter((tool) => tool.status !== 'ready');
  const noun = tools.length === 1 ? 'tool' : 'tools';
  if (unavailable.length === 0) return `${tools.length} of ${tools.length} ${noun} ready`;
  const reasons = [...new Set(unavailable.map((tool) => tool.reason ?? 'unknown'))];
  return `${unavailable.length} of ${tools.length} ${noun} unavailable: ${reasons.join(', ')}`;
}

function detailCell(tool: ReportTool): string {
  if (tool.status === 'ready') return '-';
  const text = tool.detail ?? tool.remediation ?? '-';
  const suggestions = tool.did_you_mean === undefined || tool.did_you_mean.length === 0 ? '' : ` (did you mean: ${tool.did_you_mean.join(', ')})`;
  return `${text}${suggestions}`;
}
