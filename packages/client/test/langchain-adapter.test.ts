// The LangChain adapter (@mcpproxy/client/langchain, loaded as a user loads it) on the
// MultiServerMCPClient that gives the agent its tools, against the real gateway and a real MCP
// server that does not know the extension. No model and no network: ScriptedLangChainModel stands
// in, and a run the verdict stops must not call it.
import { fileURLToPath } from 'node:url';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { preflight, requireTools } from '@mcpproxy/client/langchain';
import { createAgent } from 'langchain';
import { describe, expect, it } from 'vitest';
import { expectInReadme, expectNoCarriage, expectRanThroughTool, expectStoppedBeforeModel } from './adapter-expectations.js';
import { adapterGateway, AGENT_TOKEN, BLOCKED_IDS, EVERYTHING_MAIN, READY_IDS } from './adapter-gateway.js';
import { ScriptedLangChainModel } from './scripted-langchain-model.js';

const EXAMPLE = fileURLToPath(new URL('../examples/langchain-agent.mjs', import.meta.url));
type InvokeAgent = (options: { model: ScriptedLangChainModel; input: string; required: readonly string[]; url?: string }) => Promise<unknown>;
const NOT_MIRRORED = '@langchain/mcp-adapters creates its MCP clients without client capabilities, so this 2025-11-25 session cannot mirror the extension at initialize';

const gw = adapterGateway();

async function withMcp<T>(servers: ConstructorParameters<typeof MultiServerMCPClient>[0], use: (mcp: MultiServerMCPClient) => Promise<T>): Promise<T> {
  const mcp = new MultiServerMCPClient(servers);
  try {
    return await use(mcp);
  } finally {
    await mcp.close();
  }
}

describe('the README example (examples/langchain-agent.mjs)', () => {
  const invokeAgent = async (...args: Parameters<InvokeAgent>) => ((await import(EXAMPLE)) as { invokeAgent: InvokeAgent }).invokeAgent(...args);

  it('is in the README verbatim', () => expectInReadme(EXAMPLE));

  it('ready: the agent is invoked, and the model calls a gateway tool through LangChain', async () => {
    const model = new ScriptedLangChainModel('demo:echo', { text: 'hi' });
    const output = await invokeAgent({ model, input: 'Say hi through the echo tool.', required: READY_IDS, url: gw.mcpUrl });
    expectRanThroughTool(output, model.calls, READY_IDS, '{\\"text\\":\\"hi\\"}');
  });

  it('blocked: the run stops before the model, with each tool, its reason and its remediation (via check mode)', async () => {
    const model = new ScriptedLangChainModel('demo:echo', { text: 'hi' });
    await expectStoppedBeforeModel(invokeAgent({ model, input: 'Say hi.', required: BLOCKED_IDS, url: gw.mcpUrl }), 'check', model.calls);
  });
});

describe('carriages on the MultiServerMCPClient', () => {
  const gateway = () => ({ mcpServers: { mcpproxy: { transport: 'http' as const, url: gw.mcpUrl } } });

  it('check mode on the named connection (its clients cannot declare the extension, so no rider)', async () => {
    const result = await withMcp(gateway(), (mcp) => preflight(mcp, 'mcpproxy', BLOCKED_IDS));
    expect([result.verdict, result.carriage]).toEqual(['unknown_ids', 'check']);
    expect(result.attempts).toEqual([
      { carriage: 'rider', outcome: 'skipped', reason: NOT_MIRRORED },
      { carriage: 'check', outcome: 'answered', reason: 'answered' },
    ]);
  });

  it('a server name it does not have: no tool is called, and REST answers', async () => {
    const result = await withMcp(gateway(), (mcp) => preflight(mcp, 'gateway', READY_IDS, { rest: { url: gw.origin, token: AGENT_TOKEN } }));
    expect([result.verdict, result.carriage]).toEqual(['ready', 'rest']);
    const why = 'LangChain has no connected MCP server named "gateway"';
    expect(result.attempts.slice(0, 2)).toEqual([
      { carriage: 'rider', outcome: 'skipped', reason: why },
      { carriage: 'check', outcome: 'skipped', reason: `${why}, and check mode calls a tool only on a server known to advertise app.mcpproxy/required-tools` },
    ]);
  });
});

describe('a server without the extension: server-everything over stdio, not through the gateway', () => {
  const everything = { mcpServers: { everything: { transport: 'stdio' as const, command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'] } } };
  const gatedInvoke = (model: ScriptedLangChainModel, rest?: { url: string; token: string }) =>
    withMcp(everything, async (mcp) => {
      await requireTools(mcp, 'everything', READY_IDS, rest === undefined ? {} : { rest });
      const { messages } = await createAgent({ model, tools: await mcp.getTools() }).invoke({ messages: [{ role: 'user', content: 'Echo hi.' }] });
      return messages.at(-1)?.content;
    });

  it('no in-band carriage is tried; without REST the run stops before the model with a typed error saying why', async () => {
    const model = new ScriptedLangChainModel('echo', { message: 'hi' });
    await expectNoCarriage(gatedInvoke(model), model.calls);
  });

  it('with REST, the gateway answers and the run starts on that server', async () => {
    const model = new ScriptedLangChainModel('echo', { message: 'hi' });
    expectRanThroughTool(await gatedInvoke(model, { url: gw.origin, token: AGENT_TOKEN }), model.calls, ['echo'], 'Echo: hi');
  });
});
