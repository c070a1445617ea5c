// The server package's own start command (loaded by bin/serve.ts once the heap policy is set), `serve [--config FILE] [--listen HOST:PORT] [--stdio]`: the gateway without the
// CLI package (`mcpproxy serve` runs the same serveUntilStopped). Failures are one line on stderr and
// exit 1, never a stack trace.
import { parseArgs } from 'node:util';
import { serveUntilStopped } from '../serve-until-stopped.js';

const USAGE = 'usage: serve [--config FILE] [--listen HOST:PORT] [--stdio]   (MCPPROXY_LISTEN: as --listen)';

async function main(argv: readonly string[]): Promise<number> {
  let values: { config?: string | undefined; listen?: string | undefined; stdio?: boolean | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: { config: { type: 'string', short: 'c' }, listen: { type: 'string' }, stdio: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    return fail(`${messageOf(error)}\n${USAGE}`);
  }
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const stdio = values.stdio === true;
  const served = await serveUntilStopped({
    configPath: values.config,
    listen: values.listen,
    stdio,
    say: (line) => (stdio ? process.stderr : process.stdout).write(`${line}\n`),
    log: (line) => process.stderr.write(`mcpproxy: ${line}\n`),
  });
  return served.ok ? 0 : fail(served.message);
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
