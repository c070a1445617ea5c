// A harness on @mcpproxy/client alone calling `preflight` against a producer (argv[2]: its origin,
// the MCP endpoint at /mcp and REST beside it as the last resort, argv[3..]: the ids). Prints the result, or what was thrown, as JSON: it must never throw for an
// answer it can read, whatever codes the answer carries.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { preflight, requiredToolsCapabilities } from '@mcpproxy/client';

const [origin, ...ids] = process.argv.slice(2);
const client = new Client({ name: 'pinned-harness', version: '1.0.0' }, { capabilities: requiredToolsCapabilities(), versionNegotiation: { mode: 'auto' } });
let report;
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
  const result = await preflight(client, ids, { timeoutMs: 10_000, rest: { url: origin } });
  report = { threw: false, verdict: result.verdict, carriage: result.carriage, tools: result.tools, attempts: result.attempts };
} catch (error) {
  report = { threw: true, name: error?.name, code: error?.code, message: String(error?.message ?? error) };
} finally {
  await client.close().catch(() => undefined);
}
process.stdout.write(`${JSON.stringify(report)}\n`);
