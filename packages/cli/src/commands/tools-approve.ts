import type { ApproveRequest } from '@mcpproxy/schema';
import { usageError } from '../cli-error.js';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CONNECTION_OPTIONS } from '../connection/connection-settings.js';
import { OUTPUT_OPTION, outputFormatOf } from '../output/output-format.js';
import { printDocument } from '../output/print-document.js';
import { restClientFor } from '../rest/command-rest-client.js';
import { toolTable } from './tools-list.js';

export const toolsApprove: CommandSpec = {
  words: ['tools', 'approve'],
  summary: 'Approve pending or changed tools as their upstream lists them now',
  usage: '<server:tool>... | --server S --all [options]',
  description: 'Approval pins each tool\'s current definition hash; a later change makes it tool_changed again. Needs the admin API key.',
  options: {
    server: { type: 'string', label: '--server S', description: 'With --all: the server whose pending tools to approve' },
    all: { type: 'boolean', label: '--all', description: 'Approve every pending tool of --server' },
    ...OUTPUT_OPTION,
    ...CONNECTION_OPTIONS,
  },
  positionals: { min: 0, max: Number.MAX_SAFE_INTEGER, name: 'tool ids (server:tool)' },
  examples: ['mcpproxy tools approve github:create_issue github:list_issues', 'mcpproxy tools approve --server github --all'],
  async run(context: CommandContext) {
    const { values, positionals } = context;
    const format = outputFormatOf(values);
    const server = values['server'] as string | undefined;
    const all = values['all'] === true;
    let body: ApproveRequest;
    if (positionals.length > 0) {
      if (server !== undefined || all) throw usageError('give tool ids, or --server S --all, not both');
      body = { ids: positionals as [string, ...string[]] };
    } else {
      if (server === undefined || !all) throw usageError('give the tool ids to approve, or --server S --all (see: mcpproxy tools approve --help)');
      body = { server, all_pending: true };
    }
    const result = await restClientFor(context).call('approveTools', { body });
    printDocument(context.io, format, result, () => (result.tools.length === 0 ? 'Nothing to approve.\n' : `Approved:\n${toolTable(result.tools)}`));
    return 0;
  },
};
