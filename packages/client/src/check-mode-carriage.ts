import { checkValue, lenientValidators, MAX_TOOLS, type Policy } from '@mcpproxy/schema';
import type { CarriageAnswer } from './carriage-answer.js';
import type { CarriageClient, CarriageRequestOptions } from './carriage-client.js';
import { messageOf } from './message-of.js';

export const DESCRIBE_TOOL = 'describe_tool';

/**
 * describe_tool check mode: `{ tool_ids, check: true, filters? }`, the verdict as JSON in the text
 * content. Only ever called on a server that advertised the extension (the caller checks): an
 * unknown server's tool is never called.
 */
export async function checkModePreflight(client: CarriageClient, ids: readonly string[], policy: Policy | undefined, options: CarriageRequestOptions): Promise<CarriageAnswer> {
  if (ids.length > MAX_TOOLS) return { ok: false, reason: `check mode takes at most ${MAX_TOOLS} ids (${ids.length} given)` };
  let result: { isError?: unknown; content?: unknown };
  try {
    const raw = await client.callTool(DESCRIBE_TOOL, { tool_ids: [...ids], check: true, ...(policy === undefined ? {} : { filters: policy }) }, options);
    result = typeof raw === 'object' && raw !== null ? raw : {};
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
