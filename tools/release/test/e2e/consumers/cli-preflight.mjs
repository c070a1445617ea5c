// A user of @mcpproxy/cli alone: `npx mcpproxy --help`, then `tools preflight` over REST against
// a gateway (argv[2]: its origin, argv[3]: the admin API key, argv[4]: --wait's value or "none",
// argv[5..]: the ids, each run's ids separated by "--"). Prints every run's exit code and output as JSON.
import { spawnSync } from 'node:child_process';

const [origin, apiKey, wait, ...rest] = process.argv.slice(2);
const runs = [];
let ids = [];
for (const arg of [...rest, '--']) {
  if (arg !== '--') ids.push(arg);
  else if (ids.length > 0) {
    runs.push(ids);
    ids = [];
  }
}

function mcpproxy(args) {
  const result = spawnSync('npx', ['mcpproxy', ...args], { encoding: 'utf8', timeout: 45_000, env: { ...process.env, NO_COLOR: '1' } });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

const json = (run) => {
  try {
    return JSON.parse(run.stdout);
  } catch {
    return null;
  }
};
const connection = ['--url', origin, '--api-key', apiKey, ...(wait === 'none' ? [] : ['--wait', wait])];
const help = mcpproxy(['--help']);
const preflights = runs.map((ids) => {
  const asJson = mcpproxy(['tools', 'preflight', ...ids, ...connection, '-o', 'json']);
  const asTable = mcpproxy(['tools', 'preflight', ...ids, ...connection]);
  return { ids, json: { ...asJson, document: json(asJson) }, table: asTable };
});
process.stdout.write(`${JSON.stringify({ help, preflights })}\n`);
