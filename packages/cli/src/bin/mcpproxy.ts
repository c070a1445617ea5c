#!/usr/bin/env node
// The binary: loads the CLI (a broken installation is one line on stderr too, never a stack
// trace), runs the command line, and exits with its code once stdout has drained.
import { readAll } from '../cli-io.js';

let code: number;
try {
  const { runCli } = await import('../run-cli.js');
  code = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, readStdin: () => readAll(process.stdin) });
} catch (error) {
  process.stderr.write(`mcpproxy: cannot start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
  code = 1;
}
process.exitCode = code;
process.stdout.write('', () => process.exit(code));
