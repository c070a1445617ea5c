import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CONNECTION_OPTIONS } from '../connection/connection-settings.js';
import { OUTPUT_OPTION, outputFormatOf } from '../output/output-format.js';
import { printDocument } from '../output/print-document.js';
import { restClientFor } from '../rest/command-rest-client.js';
import { toolTable } from './tools-list.js';

function toolToggle(action: 'disable' | 'enable'): CommandSpec {
  return {
    words: ['tools', action],
    summary: action === 'disable' ? 'Disable one tool (preflight: tool_blocked_by_user; calls are refused)' : 'Enable a tool an operator disabled',
    usage: '<server:tool> [options]',
    description: 'Needs the admin API key.',
    options: { ...OUTPUT_OPTION, ...CONNECTION_OPTIONS },
    positionals: { min: 1, max: 1, name: 'tool id (server:tool)' },
    examples: [`mcpproxy tools ${action} github:delete_repo`],
    async run(context: CommandContext) {
      const format = outputFormatOf(context.values);
      const id = context.positionals[0]!;
      const result = await restClientFor(context).call(action === 'disable' ? 'disableTool' : 'enableTool', { params: { id } });
      printDocument(context.io, format, result, () => `${action === 'disable' ? 'Disabled' : 'Enabled'} ${id}.\n${toolTable(result.tools)}`);
      return 0;
    },
  };
}

export const toolsDisable = toolToggle('disable');
export const toolsEnable = toolToggle('enable');
