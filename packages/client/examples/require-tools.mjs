// Stop before spending a model token unless every required tool is usable right now.
// Usage: node examples/require-tools.mjs [server:tool ...]   (MCPPROXY_MCP_URL, MCPPROXY_TOKEN optional)
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { RequiredToolsUnavailableError, requireTools, requiredToolsCapabilities } from '@mcpproxy/client';

const url = process.env.MCPPROXY_MCP_URL ?? 'http://127.0.0.1:8080/mcp';
const token = process.env.MCPPROXY_TOKEN;
const required = process.argv.length > 2 ? process.argv.slice(2) : ['demo:echo', 'demo:get_greeting'];

// The capabilities carry the extension's mirror: the rider then works on both protocol revisions.
const client = new Client({ name: 'my-harness', version: '1.0.0' }, { capabilities: requiredToolsCapabilities(), versionNegotiation: { mode: 'auto' } });
await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}));
try {
  // Waits up to 5 s while servers are still starting; throws when a tool is unavailable.
  const result = await requireTools(client, required, { waitMs: 5000 });
  console.log(`all ${result.tools.length} required tools ready (via ${result.carriage}, request ${result.request_id})`);
} catch (error) {
  if (!(error instanceof RequiredToolsUnavailableError)) throw error;
  for (const tool of error.unavailable) console.log(`${tool.id}: ${tool.reason} - ${tool.remediation ?? tool.detail ?? ''}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
