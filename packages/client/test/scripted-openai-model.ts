// A stand-in for a real model (there is none in the tests, and no network): an OpenAI Agents SDK
// Model that plays a fixed script and counts its calls. First call: one call of `tool` with `args`;
// next call: text quoting the tool's result. A gated run that must not reach the model asserts
// `calls` stays 0.
import { Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';

export class ScriptedOpenAiModel implements Model {
  /** The tool names each call was offered, in call order. */
  readonly calls: string[][] = [];

  constructor(
    private readonly tool: string,
    private readonly args: Record<string, unknown>,
  ) {}

  getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.calls.push(request.tools.map((tool) => tool.name));
    if (this.calls.length === 1) {
      return Promise.resolve({ usage: new Usage(), output: [{ type: 'function_call', callId: 'call-1', name: this.tool, arguments: JSON.stringify(this.args), status: 'completed' }] });
    }
    const input = Array.isArray(request.input) ? request.input : [];
    const result = input.findLast((item) => item.type === 'function_call_result');
    const said = result?.type === 'function_call_result' ? result.output : null;
    return Promise.resolve({
      usage: new Usage(),
      output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `the tool said: ${JSON.stringify(said)}` }] }],
    });
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('ScriptedOpenAiModel does not stream');
  }
}
