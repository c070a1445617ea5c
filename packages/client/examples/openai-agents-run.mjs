// An OpenAI Agents SDK run that starts only when every required tool is usable: no model call before.
import { Agent, MCPServerStreamableHttp, run } from '@openai/agents';
import { requireTools } from '@mcpproxy/client/openai-agents';

export async function runAgent({ model, input, required, url = 'http://127.0.0.1:8080/mcp' }) {
  const gateway = new MCPServerStreamableHttp({ url, name: 'mcpproxy' });
  await gateway.connect();
  try {
    // Through describe_tool check mode on the agent's own MCP connection; throws
    // RequiredToolsUnavailableError (each tool, its reason and remediation) unless all are ready.
    await requireTools(gateway, required, { waitMs: 5000 });
    const agent = new Agent({ name: 'assistant', instructions: 'Use the tools to answer.', model, mcpServers: [gateway] });
    return (await run(agent, input)).finalOutput;
  } finally {
    await gateway.close();
  }
}
