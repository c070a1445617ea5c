import type { ToolInfo } from '@mcpproxy/schema';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CONNECTION_OPTIONS } from '../connection/connection-settings.js';
import { OUTPUT_OPTION, outputFormatOf } from '../output/output-format.js';
import { printDocument } from '../output/print-document.js';
import { textTable } from '../output/text-table.js';
import { restClientFor } from '../rest/command-rest-client.js';

export const toolsList: CommandSpec = {
  words: ['tools', 'list'],
  summary: 'List known tools with their approval state (and hashes, with the admin key)',
  usage: '[--server S] [options]',
  description: [
    'Every tool the gateway knows in your scope: listed by its upstream, or remembered by an',
    'approval record (pending, changed and disabled tools are known but not served). With the',
    'admin API key the HASH column shows each definition hash, the value to pass to',
    '`mcpproxy tools preflight --pin ID=HASH`.',
  ].join('\n'),
  options: {
    server: { type: 'string', label: '--server S', description: 'Only this server\'s tools' },
    ...OUTPUT_OPTION,
    ...CONNECTION_OPTIONS,
  },
  positionals: { min: 0, max: 0, name: '' },
  examples: ['mcpproxy tools list', 'mcpproxy tools list --server github -o json'],
  async run(context: CommandContext) {
    const format = outputFormatOf(context.values);
    const server = context.values['server'] as string | undefined;
    const list = await restClientFor(context).call('listTools', { query: { server } });
    printDocument(context.io, format, list, () => toolTable(list.tools));
    return 0;
  },
};

/** ID APPROVAL SERVED FLAGS HASH, one row per tool (also printed by approve / enable / disable). */
export function toolTable(tools: readonly ToolInfo[]): string {
  if (tools.length === 0) return 'No tools.\n';
  const rows = tools.map((tool) => {
    const flags = [tool.user_disabled ? 'disabled' : '', tool.config_denied ? 'config_denied' : '', tool.indexed ? '' : 'not_listed'].filter((f) => f !== '');
    return [tool.id, tool.approval ?? '-', tool.served ? 'yes' : 'no', flags.length === 0 ? '-' : flags.join(','), tool.hash ?? '-'];
  });
  return `${textTable(['ID', 'APPROVAL', 'SERVED', 'FLAGS', 'HASH'], rows).join('\n')}\n`;
}
