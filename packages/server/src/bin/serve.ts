#!/usr/bin/env node
// The gateway's start command until the CLI lands: `serve [--config FILE] [--stdio]`.
// Failures are one line on stderr and exit 1, never a stack trace.
import { parseArgs } from 'node:util';
import { EMBEDDED_DEFAULT, loadConfig } from '../config/gateway-config.js';
import { startGateway } from '../gateway.js';

const USAGE = 'usage: serve [--config FILE] [--stdio]';

async function main(argv: readonly string[]): Promise<number> {
  let values: { config?: string | undefined; stdio?: boolean | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: { config: { type: 'string', short: 'c' }, stdio: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    return fail(`${messageOf(error)}\n${USAGE}`);
  }
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const stdio = values.stdio === true;
  // In stdio mode stdout carries MCP; everything for people goes to stderr.
  const say = (line: string) => (stdio ? process.stderr : process.stdout).write(`${line}\n`);
  const log = (line: string) => process.stderr.write(`mcpproxy: ${line}\n`);

  // Signals are handled from the first moment, so one that arrives during start-up still shuts down cleanly.
  const stopped = new Promise<string>((resolve) => {
    let seen = false;
    const onSignal = (signal: string) => {
      if (seen) process.exit(130); // a second signal: stop waiting
      seen = true;
      resolve(signal);
    };
    process.on('SIGINT', () => onSignal('SIGINT'));
    process.on('SIGTERM', () => onSignal('SIGTERM'));
    // stdio mode: the client closing our stdin ends the session, and the process with it.
    if (stdio) process.stdin.on('end', () => onSignal('stdin closed'));
  });

  const loaded = await loadConfig(values.config);
  if (!loaded.ok) return fail(loaded.error.message);
  const config = loaded.config;
  if (config.api_key_generated) {
    say(`Generated an admin API key (shown once; stored in ${config.api_key_file ?? config.data_dir}):`);
    say(`  ${config.api_key}`);
  }

  const started = await startGateway(config, { stdio, log });
  if (!started.ok) return fail(started.error.message);
  const gateway = started.gateway;
  const source = config.source === EMBEDDED_DEFAULT ? 'the embedded default configuration' : config.source;
  if (gateway.url !== undefined) say(`mcpproxy gateway serving MCP at ${gateway.url} (config: ${source})`);
  else log(`gateway serving MCP on stdio (config: ${source})`);

  log(`${await stopped}: shutting down`);
  try {
    await gateway.close();
    return 0;
  } catch (error) {
    return fail(`shutdown: ${messageOf(error)}`);
  }
}

function fail(message: string): number {
  process.stderr.write(`mcpproxy: ${message}\n`);
  return 1;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => process.exit(fail(messageOf(error))),
);
