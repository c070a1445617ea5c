// The OpenAI Agents SDK adapter (@mcpproxy/client/openai-agents, loaded as a user loads it) on the
// agent's own MCP server objects, against the real gateway and a real MCP server that does not know
// the extension. No model and no network: ScriptedOpenAiModel stands in (tracing off, so nothing is
// exported), and a run the verdict stops must not call it.
import { fileURLToPath } from 'node:url';
import { preflight, requireTools } from '@mcpproxy/client/openai-agents';
import { Agent, MCPServerStdio, MCPServerStreamableHttp, run, setTracingDisabled } from '@openai/agents';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectInReadme, expectNoCarriage, expectRanThroughTool, expectStoppedBeforeModel } from './adapter-expectations.js';
import { adapterGateway, AGENT_TOKEN, BLOCKED_IDS, EVERYTHING_MAIN, READY_IDS } from './adapter-gateway.js';
import { ScriptedOpenAiModel } from './scripted-openai-model.js';

const EXAMPLE = fileURLToPath(new URL('../examples/openai-agents-run.mjs', import.meta.url));
type RunAgent = (options: { model: ScriptedOpenAiModel; input: string; required: readonly string[]; url?: string }) => Promise<unknown>;
const NOT_MIRRORED = 'the OpenAI Agents SDK creates its MCP client without client capabilities, so this 2025-11-25 session cannot mirror the extension at initialize';

const gw = adapterGateway();

beforeAll(() => setTracingDisabled(true));

describe('the README example (examples/openai-agents-run.mjs)', () => {
  const runAgent = async (...args: Parameters<RunAgent>) => ((await import(EXAMPLE)) as { runAgent: RunAgent }).runAgent(...args);

  it('is in the README verbatim', () => expectInReadme(EXAMPLE));

  it('ready: the run starts, and the model calls a gateway tool through the agent', async () => {
    // The Agents SDK offers the tools to the model under names it sanitises: demo:echo is demo_echo.
    const model = new ScriptedOpenAiModel('demo_echo', { text: 'hi' });
    const output = await runAgent({ model, input: 'Say hi through the echo tool.', required: READY_IDS, url: gw.mcpUrl });
    expectRanThroughTool(output, model.calls, ['demo_echo', 'demo_get_greeting'], '{\\"text\\":\\"hi\\"}');
  });

  it('blocked: the run stops before the model, with each tool, its reason and its remediation (via check mode)', async () => {
    const model = new ScriptedOpenAiModel('demo_echo', { text: 'hi' });
    await expectStoppedBeforeModel(runAgent({ model, input: 'Say hi.', required: BLOCKED_IDS, url: gw.mcpUrl }), 'check', model.calls);
  });
});

describe('carriages on the Agents SDK MCP server', () => {
  it('check mode on the connected server (its client cannot declare the extension, so no rider)', async () => {
    const server = new MCPServerStreamableHttp({ url: gw.mcpUrl, name: 'mcpproxy' });
    await server.connect();
    try {
      const result = await preflight(server, BLOCKED_IDS);
      expect([result.verdict, result.carriage]).toEqual(['unknown_ids', 'check']);
      expect(result.attempts).toEqual([
        { carriage: 'rider', outcome: 'skipped', reason: NOT_MIRRORED },
        { carriage: 'check', outcome: 'answered', reason: 'answered' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('a server not connected yet: no tool is called, and REST answers', async () => {
    const server = new MCPServerStreamableHttp({ url: gw.mcpUrl, name: 'mcpproxy' });
    const result = await preflight(server, READY_IDS, { rest: { url: gw.mcpUrl, token: AGENT_TOKEN } });
    expect([result.verdict, result.carriage]).toEqual(['ready', 'rest']);
    expect(result.attempts.slice(0, 2)).toEqual([
      { carriage: 'rider', outcome: 'skipped', reason: NOT_MIRRORED },
      {
        carriage: 'check',
        outcome: 'skipped',
        reason: 'the OpenAI Agents MCP server "mcpproxy" has no session to read what the server advertised (connect() it first), and check mode calls a tool only on a server known to advertise app.mcpproxy/required-tools',
      },
    ]);
  });
});

describe('a server without the extension: server-everything over stdio, not through the gateway', () => {
  const gatedRun = async (model: ScriptedOpenAiModel, rest?: { url: string; token: string }) => {
    const server = new MCPServerStdio({ command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'], name: 'everything' });
    await server.connect();
    try {
      await requireTools(server, READY_IDS, rest === undefined ? {} : { rest });
      return (await run(new Agent({ name: 'assistant', model, mcpServers: [server] }), 'Echo hi.')).finalOutput;
    } finally {
      await server.close();
    }
  };

  it('no in-band carriage is tried; without REST the run stops before the model with a typed error saying why', async () => {
    const model = new ScriptedOpenAiModel('echo', { message: 'hi' });
    await expectNoCarriage(gatedRun(model), model.calls);
  });

  it('with REST, the gateway answers and the run starts on that server', async () => {
    const model = new ScriptedOpenAiModel('echo', { message: 'hi' });
    expectRanThroughTool(await gatedRun(model, { url: gw.origin, token: AGENT_TOKEN }), model.calls, ['echo'], 'Echo: hi');
  });
});
