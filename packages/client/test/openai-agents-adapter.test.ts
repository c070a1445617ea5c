// The OpenAI Agents SDK adapter (@mcpproxy/client/openai-agents, loaded as a user loads it) on the
// agent's own MCP server objects, against the real gateway and a real MCP server that does not know
// the extension. No model and no network: ScriptedOpenAiModel stands in (tracing off, so nothing is
// exported), and a run the verdict stops must not call it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PreflightError, preflight, requireTools, RequiredToolsUnavailableError } from '@mcpproxy/client/openai-agents';
import { Agent, MCPServerStdio, MCPServerStreamableHttp, run, setTracingDisabled } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_TOKEN, BLOCKED_IDS, EVERYTHING_MAIN, expectBlockedError, READY_IDS, startAdapterGateway } from './adapter-gateway.js';
import { Scratch, type Gateway } from './client-harness.js';
import { ScriptedOpenAiModel } from './scripted-openai-model.js';

const EXAMPLE = fileURLToPath(new URL('../examples/openai-agents-run.mjs', import.meta.url));
type RunAgent = (options: { model: ScriptedOpenAiModel; input: string; required: readonly string[]; url?: string }) => Promise<unknown>;
const NOT_MIRRORED = 'the OpenAI Agents SDK creates its MCP client without client capabilities, so this 2025-11-25 session cannot mirror the extension at initialize';

let scratch: Scratch;
let gw: Gateway;

beforeAll(async () => {
  setTracingDisabled(true);
  scratch = new Scratch();
  gw = await startAdapterGateway(scratch);
});
afterAll(async () => {
  await gw?.stop();
  scratch?.remove();
});

describe('the README example (examples/openai-agents-run.mjs)', () => {
  const runAgent = async (...args: Parameters<RunAgent>) => ((await import(EXAMPLE)) as { runAgent: RunAgent }).runAgent(...args);

  it('is in the README verbatim', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect([...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((block) => block[1])).toContain(readFileSync(EXAMPLE, 'utf8'));
  });

  it('ready: the run starts, and the model calls a gateway tool through the agent', async () => {
    // The Agents SDK offers the tools to the model under names it sanitises: demo:echo is demo_echo.
    const model = new ScriptedOpenAiModel('demo_echo', { text: 'hi' });
    const output = await runAgent({ model, input: 'Say hi through the echo tool.', required: READY_IDS, url: gw.mcpUrl });
    expect(model.calls).toHaveLength(2);
    expect(model.calls[0]).toEqual(expect.arrayContaining(['demo_echo', 'demo_get_greeting']));
    expect(output).toContain('{\\"text\\":\\"hi\\"}');
  });

  it('blocked: the run stops before the model, with each tool, its reason and its remediation', async () => {
    const model = new ScriptedOpenAiModel('demo_echo', { text: 'hi' });
    const error = await runAgent({ model, input: 'Say hi.', required: BLOCKED_IDS, url: gw.mcpUrl }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequiredToolsUnavailableError);
    expectBlockedError(error as RequiredToolsUnavailableError);
    expect((error as RequiredToolsUnavailableError).carriage).toBe('check');
    expect(model.calls).toEqual([]);
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
      { carriage: 'check', outcome: 'skipped', reason: 'the OpenAI Agents MCP server "mcpproxy" has no session to read what the server advertised (connect() it first), and check mode calls a tool only on a server known to advertise app.mcpproxy/required-tools' },
    ]);
  });
});

describe('a server without the extension: server-everything over stdio, not through the gateway', () => {
  const gatedRun = async (server: MCPServerStdio, model: ScriptedOpenAiModel, rest?: { url: string; token: string }) => {
    await requireTools(server, READY_IDS, rest === undefined ? {} : { rest });
    return (await run(new Agent({ name: 'assistant', model, mcpServers: [server] }), 'Echo hi.')).finalOutput;
  };
  const everything = async () => {
    const server = new MCPServerStdio({ command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'], name: 'everything' });
    await server.connect();
    return server;
  };

  it('no in-band carriage is tried; without REST the run stops before the model with a typed error saying why', async () => {
    const server = await everything();
    try {
      const model = new ScriptedOpenAiModel('echo', { message: 'hi' });
      const error = await gatedRun(server, model).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PreflightError);
      expect((error as PreflightError).code).toBe('no_carriage');
      expect((error as PreflightError).attempts).toEqual([
        { carriage: 'rider', outcome: 'skipped', reason: 'the server did not advertise app.mcpproxy/required-tools' },
        { carriage: 'check', outcome: 'skipped', reason: 'the server did not advertise app.mcpproxy/required-tools' },
        { carriage: 'rest', outcome: 'skipped', reason: 'no REST url given (options.rest)' },
      ]);
      expect(model.calls).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('with REST, the gateway answers and the run starts on that server', async () => {
    const server = await everything();
    try {
      const model = new ScriptedOpenAiModel('echo', { message: 'hi' });
      expect(await gatedRun(server, model, { url: gw.origin, token: AGENT_TOKEN })).toContain('Echo: hi');
      expect(model.calls).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
