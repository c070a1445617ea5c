import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CliError } from '../cli-error.js';

export const serve: CommandSpec = {
  words: ['serve'],
  summary: 'Run the gateway (MCP at /mcp and REST at /api/v1 on one HTTP listener, or MCP on stdio)',
  usage: '[--config FILE] [--stdio]',
  description: [
    'Without --config the embedded default runs: listen 127.0.0.1:8080, data in ~/.mcpproxy (or',
    'MCPPROXY_DATA_DIR), and a bundled demo upstream named "demo". On first start an admin API key',
    'is generated, printed once and stored in <data_dir>/api-key, where the other commands find it.',
    'Stops cleanly on SIGINT or SIGTERM (and, with --stdio, when standard input closes).',
  ].join('\n'),
  options: {
    config: { type: 'string', short: 'c', label: '-c, --config FILE', description: 'Gateway configuration (JSON)' },
    stdio: { type: 'boolean', label: '--stdio', description: 'Serve MCP on standard input/output instead of HTTP' },
  },
  positionals: { min: 0, max: 0, name: '' },
  examples: ['mcpproxy serve', 'mcpproxy serve --config ./mcpproxy.json', 'mcpproxy serve --stdio --config ./mcpproxy.json'],
  run,
};

async function run(context: CommandContext): Promise<number> {
  const { values, io } = context;
  const stdio = values['stdio'] === true;
  // With --stdio, stdout carries MCP: everything for people goes to stderr.
  const say = (line: string) => (stdio ? io.stderr : io.stdout).write(`${line}\n`);
  const log = (line: string) => io.stderr.write(`mcpproxy: ${line}\n`);

  // Listen for signals before anything slow, so one that arrives during start-up still stops cleanly.
  const stopped = new Promise<string>((resolve) => {
    let seen = false;
    const onSignal = (why: string) => {
      if (seen) process.exit(130); // a second signal: stop waiting for the shutdown
      seen = true;
      resolve(why);
    };
    process.on('SIGINT', () => onSignal('SIGINT'));
    process.on('SIGTERM', () => onSignal('SIGTERM'));
    if (stdio) process.stdin.on('end', () => onSignal('stdin closed'));
  });

  // Loaded here, not at the top: every other command starts faster without the gateway's modules.
  const { EMBEDDED_DEFAULT, loadConfig, startGateway } = await import('@mcpproxy/server');
  const loaded = await loadConfig(values['config'] as string | undefined);
  if (!loaded.ok) throw new CliError('config', loaded.error.message);
  const config = loaded.config;
  if (config.api_key_generated) {
    say(`Generated an admin API key (shown once; stored in ${config.api_key_file ?? config.data_dir}):`);
    say(`  ${config.api_key}`);
  }
  const started = await startGateway(config, { stdio, log });
  if (!started.ok) throw new CliError('config', started.error.message);
  const gateway = started.gateway;
  const source = config.source === EMBEDDED_DEFAULT ? 'the embedded default configuration' : config.source;
  if (gateway.url !== undefined) say(`mcpproxy gateway serving MCP at ${gateway.url} and REST at ${gateway.origin ?? ''}/api/v1 (config: ${source})`);
  else log(`gateway serving MCP on stdio (config: ${source})`);

  log(`${await stopped}: shutting down`);
  try {
    await gateway.close();
  } catch (error) {
    throw new CliError('io', `shutdown: ${error instanceof Error ? error.message : String(error)}`);
  }
  return 0;
}
