// A user of @mcpproxy/client's Vercel AI SDK adapter who installed @mcpproxy/client and @ai-sdk/mcp
// only: gates the AI SDK's own MCP client on a gateway (argv[2]: its MCP URL, argv[3..]: the ids)
// and reports the verdict, the carriage, and which agent runtimes and MCP SDKs the install brought.
import { existsSync } from 'node:fs';
import { createMCPClient } from '@ai-sdk/mcp';
import { requiredToolsCapabilities, requireTools } from '@mcpproxy/client/ai-sdk';

const RUNTIMES = ['@ai-sdk/mcp', 'ai', '@openai/agents', '@langchain/mcp-adapters', '@langchain/core', '@modelcontextprotocol/client', '@modelcontextprotocol/sdk'];
const [url, ...ids] = process.argv.slice(2);
let report;
const mcp = await createMCPClient({ transport: { type: 'http', url }, capabilities: requiredToolsCapabilities() });
try {
  const result = await requireTools(mcp, ids, { waitMs: 10_000 });
  report = { threw: false, verdict: result.verdict, carriage: result.carriage, tools: result.tools };
} catch (error) {
  report = { threw: true, name: error?.name, code: error?.code, message: String(error?.message ?? error) };
} finally {
  await mcp.close();
}
report.installed = RUNTIMES.filter((name) => existsSync(`node_modules/${name}/package.json`));
process.stdout.write(`${JSON.stringify(report)}\n`);
