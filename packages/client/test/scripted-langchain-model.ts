// A stand-in for a real model (there is none in the tests, and no network): a LangChain chat model
// that plays a fixed script and counts its calls. First call: one call of `tool` with `args`; next
// call: text quoting the tool's result. A gated run that must not reach the model asserts `calls`
// stays 0.
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

export class ScriptedLangChainModel extends BaseChatModel {
  /** The tool names each call was offered, in call order (shared by the copies bindTools makes). */
  readonly calls: string[][];
  private readonly bound: readonly string[];

  constructor(
    private readonly tool: string,
    private readonly args: Record<string, unknown>,
    shared: { calls: string[][]; bound: readonly string[] } = { calls: [], bound: [] },
  ) {
    super({});
    this.calls = shared.calls;
    this.bound = shared.bound;
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: BindToolsInput[]): ScriptedLangChainModel {
    const names = tools.map((tool) => (typeof tool === 'object' && tool !== null && 'name' in tool && typeof tool.name === 'string' ? tool.name : '?'));
    return new ScriptedLangChainModel(this.tool, this.args, { calls: this.calls, bound: names });
  }

  _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.calls.push([...this.bound]);
    const message =
      this.calls.length === 1
        ? new AIMessage({ content: '', tool_calls: [{ id: 'call-1', name: this.tool, args: this.args }] })
        : new AIMessage(`the tool said: ${JSON.stringify(messages.at(-1)?.content ?? null)}`);
    return Promise.resolve({ generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] });
  }
}
