import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CliError } from '../cli-error.js';

export const serve: CommandSpec = {
  words: ['serve'],
  summary: 'Run the gateway (MCP at /mcp and REST at /api/v1 on one HTTP listener, or MCP on stdio; REST also on <data_dir>/gateway.sock)',
  usage: '[--config FILE] [--listen HOST:PORT] [--stdio]',
  description: [
    'Without --config the embedded default runs: listen 127.0.0.1:8080, data in ~/.mcpproxy (or',
    'MCPPROXY_DATA_DIR), and a bundled demo upstream named "demo". On first start an admin API key',
    'is generated, printed once and stored in <data_dir>/api-key, where the other commands find it.',
    '--listen (or MCPPROXY_LISTEN) replaces the configuration\'s listen address; port 0 takes any free',
    'port. The address the gateway actually listens on is kept in <data_dir>/gateway.json while it',
    'runs, and the other commands find it there. Every gateway also opens a local socket,',
    '<data_dir>/gateway.sock (mode 0600, the same REST API and credentials): with --stdio, where',
    'there is no HTTP listener, the other commands reach the gateway through it.',
    'With --stdio, when another gateway already holds the data directory, this one relays its',
    'client\'s session to that gateway over its socket instead of refusing.',
    'SIGHUP reloads the configuration file (servers and profiles apply at once; the log names any',
    'setting that needs a restart; an invalid file is refused and the gateway runs on);',
    '"watch_config": true reloads whenever the file changes.',
    'Stops cleanly on SIGINT or SIGTERM (and, with --stdio, when standard input closes).',
  ].join('\n'),
  options: {
    config: { type: 'string', short: 'c', label: '-c, --config FILE', description: 'Gateway configuration (JSON)' },
    listen: { type: 'string', label: '--listen HOST:PORT', description: 'Listen here instead of the configured address (env MCPPROXY_LISTEN)' },
    stdio: { type: 'boolean', label: '--stdio', description: 'Serve MCP on standard input/output instead of HTTP' },
  },
  positionals: { min: 0, max: 0, name: '' },
  examples: ['mcpproxy serve', 'mcpproxy serve --config ./mcpproxy.json', 'mcpproxy serve --listen 127.0.0.1:0', 'mcpproxy serve --stdio --config ./mcpproxy.json'],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const { values, io } = context;
  const stdio = values['stdio'] === true;
  // V8's small-heap flags before the gateway's modules load: loading them is the process's first
  // allocation burst, and a young generation it grew would stay grown (the server README, Memory).
  const { preferSmallHeap } = await import('@mcpproxy/server/small-heap-policy');
  preferSmallHeap();
  // Loaded here, not at the top: every other command starts faster without the gateway's modules.
  const { serveUntilStopped } = await import('@mcpproxy/server');
  const served = await serveUntilStopped({
    configPath: values['config'] as string | undefined,
    listen: values['listen'] as string | undefined,
    env: io.env,
    stdio,
    // With --stdio, stdout carries MCP: everything for people goes to stderr.
    say: (line) => (stdio ? io.stderr : io.stdout).write(`${line}\n`),
    log: (line) => io.stderr.write(`mcpproxy: ${line}\n`),
  });
  if (!served.ok) throw new CliError(served.code === 'shutdown' ? 'io' : 'config', served.message);
  return 0;
}
