#!/usr/bin/env node
import { readAll } from '../cli-io.js';
import { runCli } from '../run-cli.js';

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  readStdin: () => readAll(process.stdin),
});
// Let stdout drain before leaving (a pipe to `head` or a CI log must get everything).
process.exitCode = code;
process.stdout.write('', () => process.exit(code));
