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

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) process.exit(130); // a second signal: stop waiting
      stopping = true;
      log(`${signal}: shutting down`);
      gateway.close().then(
        () => resolve(0),
        (error: unknown) => resolve(fail(`shutdown: ${messageOf(error)}`)),
      );
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
    // stdio mode: the client closing our stdin ends the session, and the process with it.
    if (stdio) process.stdin.on('end', () => stop('stdin closed'));
  });
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
