// A LangChain agent that is invoked only when every required tool is usable: no model call before.
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { createAgent } from 'langchain';
import { requireTools } from '@mcpproxy/client/langchain';

export async function invokeAgent({ model, input, required, url = 'http://127.0.0.1:8080/mcp' }) {
  const mcp = new MultiServerMCPClient({ mcpServers: { mcpproxy: { transport: 'http', url } } });
  try {
    // Through describe_tool check mode on the 'mcpproxy' connection; throws
    // RequiredToolsUnavailableError (each tool, its reason and remediation) unless all are ready.
    await requireTools(mcp, 'mcpproxy', required, { waitMs: 5000 });
    const agent = createAgent({ model, tools: await mcp.getTools() });
    const { messages } = await agent.invoke({ messages: [{ role: 'user', content: input }] });
    return messages.at(-1).content;
  } finally {
    await mcp.close();
  }
}
