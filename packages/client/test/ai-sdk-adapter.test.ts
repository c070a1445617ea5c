// The Vercel AI SDK adapter (@mcpproxy/client/ai-sdk, loaded as a user loads it) on the AI SDK's own
// MCP client, against the real gateway and a real MCP server that does not know the extension. No
// model and no network: ScriptedAiSdkModel stands in, and a run the verdict stops must not call it.
import { fileURLToPath } from 'node:url';
import { createMCPClient, type MCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { preflight, requiredToolsCapabilities, requireTools } from '@mcpproxy/client/ai-sdk';
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { expectInReadme, expectNoCarriage, expectRanThroughTool, expectStoppedBeforeModel } from './adapter-expectations.js';
import { adapterGateway, AGENT_TOKEN, BLOCKED_IDS, EVERYTHING_MAIN, READY_IDS } from './adapter-gateway.js';
import { ScriptedAiSdkModel } from './scripted-ai-sdk-model.js';

const EXAMPLE = fileURLToPath(new URL('../examples/ai-sdk-agent.mjs', import.meta.url));
type Answer = (options: { model: ScriptedAiSdkModel; prompt: string; required: readonly string[]; url?: string }) => Promise<string>;

const gw = adapterGateway();

async function withClient<T>(capabilities: Record<string, unknown>, use: (mcp: MCPClient) => Promise<T>): Promise<T> {
  const mcp = await createMCPClient({ transport: { type: 'http', url: gw.mcpUrl }, capabilities });
  try {
    return await use(mcp);
  } finally {
    await mcp.close();
  }
}

describe('the README example (examples/ai-sdk-agent.mjs)', () => {
  const answer = async (...args: Parameters<Answer>) => ((await import(EXAMPLE)) as { answer: Answer }).answer(...args);

  it('is in the README verbatim', () => expectInReadme(EXAMPLE));

  it('ready: the run starts, and the model calls a gateway tool through the AI SDK', async () => {
    const model = new ScriptedAiSdkModel('demo:echo', { text: 'hi' });
    const text = await answer({ model, prompt: 'Say hi through the echo tool.', required: READY_IDS, url: gw.mcpUrl });
    expectRanThroughTool(text, model.calls, READY_IDS, '{\\"text\\":\\"hi\\"}');
  });

  it('blocked: the run stops before the model, with each tool, its reason and its remediation (via the rider)', async () => {
    const model = new ScriptedAiSdkModel('demo:echo', { text: 'hi' });
    await expectStoppedBeforeModel(answer({ model, prompt: 'Say hi.', required: BLOCKED_IDS, url: gw.mcpUrl }), 'rider', model.calls);
  });
});

describe('carriages on the AI SDK client', () => {
  it('declared at initialize (requiredToolsCapabilities): the rider, one tools/list', async () => {
    const result = await withClient(requiredToolsCapabilities(), (mcp) => preflight(mcp, READY_IDS));
    expect([result.verdict, result.carriage]).toEqual(['ready', 'rider']);
    expect(result.attempts).toEqual([{ carriage: 'rider', outcome: 'answered', reason: 'answered' }]);
  });

  it('not declared: the rider is skipped and describe_tool check mode answers', async () => {
    const result = await withClient({}, (mcp) => preflight(mcp, BLOCKED_IDS));
    expect([result.verdict, result.carriage]).toEqual(['unknown_ids', 'check']);
    expect(result.attempts).toEqual([
      { carriage: 'rider', outcome: 'skipped', reason: 'this session did not declare app.mcpproxy/required-tools at initialize (pass capabilities: requiredToolsCapabilities() to createMCPClient)' },
      { carriage: 'check', outcome: 'answered', reason: 'answered' },
    ]);
  });

  it("requiredToolsCapabilities keeps the caller's capabilities", () => {
    expect(requiredToolsCapabilities({ elicitation: {}, experimental: { other: { a: 1 } } })).toEqual({
      elicitation: {},
      experimental: { other: { a: 1 }, 'app.mcpproxy/required-tools': { version: expect.any(Number) } },
    });
  });

  // Another @ai-sdk/mcp version may not have the fields read for what was advertised and declared:
  // only the public interface is left. The rider is then the probe; check mode is not used.
  it('a client showing only its public interface: the rider probes; without a facet, no tool is called and REST answers', async () => {
    const publicOnly = (mcp: MCPClient) => ({ listTools: mcp.listTools.bind(mcp), toolsFromDefinitions: mcp.toolsFromDefinitions.bind(mcp) });
    const declared = await withClient(requiredToolsCapabilities(), (mcp) => preflight(publicOnly(mcp), READY_IDS));
    expect(declared.carriage).toBe('rider');
    const undeclared = await withClient({}, (mcp) => preflight(publicOnly(mcp), READY_IDS, { rest: { url: gw.origin, token: AGENT_TOKEN } }));
    expect(undeclared.carriage).toBe('rest');
    expect(undeclared.attempts.map((a) => [a.carriage, a.outcome])).toEqual([
      ['rider', 'failed'],
      ['check', 'skipped'],
      ['rest', 'answered'],
    ]);
    expect(undeclared.attempts[1]!.reason).toBe(
      'this @ai-sdk/mcp client does not show what the server advertised, and check mode calls a tool only on a server known to advertise app.mcpproxy/required-tools',
    );
  });
});

describe('a server without the extension: server-everything over stdio, not through the gateway', () => {
  const everything = () => createMCPClient({ transport: new Experimental_StdioMCPTransport({ command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'] }), capabilities: requiredToolsCapabilities() });
  const gatedRun = async (model: ScriptedAiSdkModel, rest?: { url: string; token: string }) => {
    const mcp = await everything();
    try {
      await requireTools(mcp, READY_IDS, rest === undefined ? {} : { rest });
      return (await generateText({ model, tools: await mcp.tools(), prompt: 'Echo hi.', stopWhen: stepCountIs(3) })).text;
    } finally {
      await mcp.close();
    }
  };

  it('no in-band carriage is tried; without REST the run stops before the model with a typed error saying why', async () => {
    const model = new ScriptedAiSdkModel('echo', { message: 'hi' });
    await expectNoCarriage(gatedRun(model), model.calls);
  });

  it('with REST, the gateway answers and the run starts on that server', async () => {
    const model = new ScriptedAiSdkModel('echo', { message: 'hi' });
    expectRanThroughTool(await gatedRun(model, { url: gw.origin, token: AGENT_TOKEN }), model.calls, ['echo'], 'Echo: hi');
  });
});
