// A Vercel AI SDK run that starts only when every required tool is usable: no model call before.
import { createMCPClient } from '@ai-sdk/mcp';
import { generateText, stepCountIs } from 'ai';
import { requiredToolsCapabilities, requireTools } from '@mcpproxy/client/ai-sdk';

export async function answer({ model, prompt, required, url = 'http://127.0.0.1:8080/mcp' }) {
  // The capabilities mirror the extension at initialize, so the check rides one tools/list (the rider).
  const mcp = await createMCPClient({ transport: { type: 'http', url }, capabilities: requiredToolsCapabilities() });
  try {
    // Throws RequiredToolsUnavailableError (each tool, its reason and remediation) unless all are ready.
    await requireTools(mcp, required, { waitMs: 5000 });
    const { text } = await generateText({ model, tools: await mcp.tools(), prompt, stopWhen: stepCountIs(5) });
    return text;
  } finally {
    await mcp.close();
  }
}
