// One tools/call through a gateway's /mcp with @modelcontextprotocol/client (argv[2]: the MCP
// endpoint, argv[3]: the tool name). Prints whether the call was answered as an error, its text,
// or what was thrown, as JSON.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, name] = process.argv.slice(2);
const client = new Client({ name: 'call-tool', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'auto' } });
let report;
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const result = await client.callTool({ name, arguments: { n: 1 } });
  report = { threw: false, is_error: result.isError === true, text: (result.content ?? []).map((c) => c.text ?? '').join('\n') };
} catch (error) {
  report = { threw: true, code: error?.code, message: String(error?.message ?? error) };
} finally {
  await client.close().catch(() => undefined);
}
process.stdout.write(`${JSON.stringify(report)}\n`);
