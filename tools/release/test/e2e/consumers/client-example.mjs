// A user of @mcpproxy/client alone: the example the package ships (examples/require-tools.mjs, the
// one its README shows) against a gateway (argv[2]: its MCP URL, argv[3..]: the required ids).
// Prints the example's exit code and output as JSON.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const [url, ...ids] = process.argv.slice(2);
const pkg = dirname(createRequire(import.meta.url).resolve('@mcpproxy/client/package.json'));
const example = spawnSync(process.execPath, [join(pkg, 'examples', 'require-tools.mjs'), ...ids], {
  encoding: 'utf8',
  timeout: 45_000,
  env: { ...process.env, MCPPROXY_MCP_URL: url },
});
process.stdout.write(`${JSON.stringify({ status: example.status, signal: example.signal, stdout: example.stdout, stderr: example.stderr })}\n`);
