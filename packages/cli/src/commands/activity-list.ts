import type { ActivityRecord } from '@mcpproxy/schema';
import { usageError } from '../cli-error.js';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CONNECTION_OPTIONS } from '../connection/connection-settings.js';
import { OUTPUT_OPTION, outputFormatOf } from '../output/output-format.js';
import { printDocument } from '../output/print-document.js';
import { textTable } from '../output/text-table.js';
import { restClientFor } from '../rest/command-rest-client.js';

export const activityList: CommandSpec = {
  words: ['activity', 'list'],
  summary: 'Browse the activity log: preflights and tool calls, newest first',
  usage: '[--type preflight|tool_call] [--request-id ID] [--limit N] [options]',
  description: 'Every preflight (REST, CLI, rider, check mode, resolve) writes a record with its request ID before it answers. Needs the admin API key.',
  options: {
    type: { type: 'string', label: '--type T', description: 'preflight or tool_call' },
    'request-id': { type: 'string', label: '--request-id ID', description: 'Only the records of this request (the request_id a preflight printed)' },
    limit: { type: 'string', label: '--limit N', description: 'At most N records, 1..1000 (default 100)' },
    ...OUTPUT_OPTION,
    ...CONNECTION_OPTIONS,
  },
  positionals: { min: 0, max: 0, name: '' },
  examples: ['mcpproxy activity list --type preflight', 'mcpproxy activity list --request-id req_01J0ABC -o json', 'mcpproxy activity list --limit 10'],
  async run(context: CommandContext) {
    const { values } = context;
    const format = outputFormatOf(values);
    const type = values['type'] as string | undefined;
    if (type !== undefined && type !== 'preflight' && type !== 'tool_call') throw usageError(`--type: expected preflight or tool_call, got ${JSON.stringify(type)}`);
    const limitText = values['limit'] as string | undefined;
    if (limitText !== undefined && !/^\d+$/.test(limitText)) throw usageError(`--limit: expected a whole number from 1 to 1000, got ${JSON.stringify(limitText)}`);
    const limit = limitText === undefined ? undefined : Number(limitText);
    if (limit !== undefined && (limit < 1 || limit > 1000)) throw usageError(`--limit: expected a whole number from 1 to 1000, got ${limitText}`);
    const page = await restClientFor(context).call('listActivity', { query: { type, request_id: values['request-id'] as string | undefined, limit } });
    printDocument(context.io, format, page, () => activityTable(page.records));
    return 0;
  },
};

function activityTable(records: readonly ActivityRecord[]): string {
  if (records.length === 0) return 'No activity records.\n';
  const rows = records.map((record) => [record.timestamp, record.type, 'surface' in record ? record.surface : '-', record.status, record.request_id, summary(record)]);
  return `${textTable(['TIME', 'TYPE', 'SURFACE', 'STATUS', 'REQUEST_ID', 'SUMMARY'], rows).join('\n')}\n`;
}

function summary(record: ActivityRecord): string {
  if (record.type === 'tool_call') {
    const { server, tool, outcome, reason } = record.metadata;
    return `${server}:${tool} ${outcome}${reason === undefined ? '' : ` (${reason})`}`;
  }
  const { verdict, ids_count, reasons } = record.metadata;
  const codes = Object.entries(reasons).map(([code, count]) => `${code}×${count}`);
  return `${verdict}, ${ids_count} ${ids_count === 1 ? 'id' : 'ids'}${codes.length === 0 ? '' : `: ${codes.join(', ')}`}`;
}
