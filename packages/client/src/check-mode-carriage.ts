import { checkValue, lenientValidators, MAX_TOOLS, type Policy } from '@mcpproxy/schema';
import type { Client } from '@modelcontextprotocol/client';
import type { CarriageAnswer } from './carriage-answer.js';
import { messageOf } from './message-of.js';

export const DESCRIBE_TOOL = 'describe_tool';

/**
 * describe_tool check mode: `{ tool_ids, check: true, filters? }`, the verdict as JSON in the text
 * content. Only ever called on a server that advertised the extension (the caller checks): an
 * unknown server's tool is never called.
 */
export async function checkModePreflight(client: Client, ids: readonly string[], policy: Policy | undefined, options: { signal?: AbortSignal; timeoutMs: number }): Promise<CarriageAnswer> {
  if (ids.length > MAX_TOOLS) return { ok: false, reason: `check mode takes at most ${MAX_TOOLS} ids (${ids.length} given)` };
  let result: { isError?: boolean; content?: unknown };
  try {
    result = (await client.callTool(
      { name: DESCRIBE_TOOL, arguments: { tool_ids: [...ids], check: true, ...(policy === undefined ? {} : { filters: policy }) } },
      { timeout: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) },
    )) as { isError?: boolean; content?: unknown };
  } catch (error) {
    return { ok: false, reason: `${DESCRIBE_TOOL} failed: ${messageOf(error)}` };
  }
  const text = firstText(result.content);
  if (result.isError === true) return { ok: false, reason: `${DESCRIBE_TOOL} answered a tool error: ${text ?? '(no text)'}` };
  if (text === undefined) return { ok: false, reason: `${DESCRIBE_TOOL} answered no text content` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: `${DESCRIBE_TOOL} answered text that is not JSON` };
  }
  const checked = checkValue(lenientValidators.CheckModeResult, parsed);
  if (!checked.ok) return { ok: false, reason: `${DESCRIBE_TOOL} answered an invalid CheckModeResult: ${checked.issues.map((i) => `${i.path || '/'} ${i.message}`).join('; ')}` };
  const { verdict, checked_at, request_id, results } = checked.value;
  return { ok: true, answer: { verdict, checked_at, request_id, tools: results } };
}

function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const block = content.find((item): item is { type: 'text'; text: string } => typeof item === 'object' && item !== null && item.type === 'text' && typeof item.text === 'string');
  return block?.text;
}
