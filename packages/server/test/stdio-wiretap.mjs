#!/usr/bin/env node
// A wiretap between the gateway and a real stdio upstream: `node stdio-wiretap.mjs LOG -- CMD ARGS...`
// runs CMD, passes both directions through unchanged, and appends every line it carries to LOG as
// {"dir":"up"|"down","message":...} (up = gateway to upstream). Tests read it to see what an upstream
// they did not write actually received, e.g. which request id a notifications/cancelled named.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [log, separator, command, ...args] = process.argv.slice(2);
if (log === undefined || separator !== '--' || command === undefined) {
  process.stderr.write('usage: stdio-wiretap.mjs LOG -- CMD [ARGS...]\n');
  process.exit(2);
}

const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const record = (dir, line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    message = line;
  }
  appendFileSync(log, `${JSON.stringify({ dir, message })}\n`);
};

createInterface({ input: process.stdin }).on('line', (line) => {
  record('up', line);
  child.stdin.write(`${line}\n`);
});
process.stdin.on('end', () => child.stdin.end());
createInterface({ input: child.stdout }).on('line', (line) => {
  record('down', line);
  process.stdout.write(`${line}\n`);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(name, () => child.kill(name));
