import { CLI_VERSION } from './cli-version.js';
import type { CommandSpec } from './command-spec.js';
import { textTable } from './output/text-table.js';

const CONNECTION_NOTE = [
  'Where commands connect: --url or MCPPROXY_URL, else the address the gateway of the data directory',
  'runs on (<data_dir>/gateway.json; a `serve --stdio` gateway is reached over its local socket,',
  '<data_dir>/gateway.sock), else MCPPROXY_LISTEN, else the --config file\'s listen address,',
  'else http://127.0.0.1:8080. Credential: --api-key / MCPPROXY_API_KEY (operator), --token /',
  'MCPPROXY_TOKEN (agent token), else the key in <data_dir>/api-key.',
].join('\n');

export function commandHelp(spec: CommandSpec): string {
  const options = Object.values(spec.options).map((option) => [`  ${option.label}`, option.description]);
  options.push(['  -h, --help', 'Show this help']);
  return [
    `Usage: mcpproxy ${spec.words.join(' ')} ${spec.usage}`.trimEnd(),
    '',
    spec.summary,
    ...(spec.description === undefined ? [] : ['', spec.description]),
    '',
    'Options:',
    ...textTable(['', ''], options).slice(1),
    '',
    'Examples:',
    ...spec.examples.map((example) => `  ${example}`),
    '',
  ].join('\n');
}

export function groupHelp(group: string, description: string, commands: readonly CommandSpec[]): string {
  const rows = commands.map((spec) => [`  mcpproxy ${spec.words.join(' ')}`, spec.summary]);
  return [`Usage: mcpproxy ${group} <command> [options]`, '', description, '', 'Commands:', ...textTable(['', ''], rows).slice(1), '', `Run \`mcpproxy ${group} <command> --help\` for a command's options and examples.`, ''].join('\n');
}

export function mainHelp(commands: readonly CommandSpec[]): string {
  const rows = commands.map((spec) => [`  ${spec.words.join(' ')}`, spec.summary]);
  return [
    `mcpproxy ${CLI_VERSION}: an MCP gateway with the required-tools preflight`,
    '',
    'Usage: mcpproxy <command> [options]',
    '',
    'Commands:',
    ...textTable(['', ''], rows).slice(1),
    '',
    CONNECTION_NOTE,
    '',
    'Exit codes of tools preflight: 0 ready, 10 degraded_retryable, 11 blocked, 12 unknown_ids;',
    '1 whenever a command fails. NO_COLOR=1 (or a pipe) turns colour off.',
    '',
    'Examples:',
    '  mcpproxy serve',
    '  mcpproxy tools preflight demo:echo; echo "exit $?"',
    '  mcpproxy tools list --server demo',
    '',
    'Run `mcpproxy <command> --help` for a command\'s options and examples. Global: -h/--help, -V/--version.',
    '',
  ].join('\n');
}
