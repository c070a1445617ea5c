// A stand-in for a real model (there is none in the tests, and no network): a Vercel AI SDK
// LanguageModel that plays a fixed script and counts its calls. First call: one call of `tool`
// with `args`; next call: text quoting the tool's result. A gated run that must not reach the
// model asserts `calls` stays 0.
import type { LanguageModel } from 'ai';

type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];

export class ScriptedAiSdkModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'scripted';
  readonly modelId = 'scripted-tool-then-text';
  readonly supportedUrls = {};
  /** The tool names each call was offered, in call order. */
  readonly calls: string[][] = [];

  constructor(
    private readonly tool: string,
    private readonly args: Record<string, unknown>,
  ) {}

  doGenerate(options: CallOptions): ReturnType<LanguageModelV3['doGenerate']> {
    this.calls.push((options.tools ?? []).map((tool) => tool.name));
    const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
    if (this.calls.length === 1) {
      return Promise.resolve({
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: this.tool, input: JSON.stringify(this.args) }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      });
    }
    const last = options.prompt.at(-1);
    const result = last?.role === 'tool' ? last.content.find((part) => part.type === 'tool-result') : undefined;
    return Promise.resolve({
      content: [{ type: 'text', text: `the tool said: ${JSON.stringify(result?.output ?? null)}` }],
      finishReason: { unified: 'stop', raw: undefined },
      usage,
      warnings: [],
    });
  }

  doStream(): ReturnType<LanguageModelV3['doStream']> {
    return Promise.reject(new Error('ScriptedAiSdkModel does not stream'));
  }
}
