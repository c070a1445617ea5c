import { readFileSync } from 'node:fs';

/** What `tools/call` does for one fixture tool. */
export type FixtureBehavior =
  | { readonly kind: 'canned'; readonly result: Readonly<Record<string, unknown>> }
  | { readonly kind: 'echo' }
  | { readonly kind: 'error'; readonly message: string }
  /** Reports `steps` progress notifications `intervalMs` apart (when the call has a token), then answers; a cancel ends it early. */
  | { readonly kind: 'progress'; readonly steps: number; readonly intervalMs: number }
  /** Asks its client (sampling, elicitation, roots) on behalf of the call and answers with what came back. */
  | { readonly kind: 'ask'; readonly method: AskedMethod; readonly params?: Readonly<Record<string, unknown>> };

export type AskedMethod = 'sampling/createMessage' | 'elicitation/create' | 'roots/list';

export interface FixtureTool {
  /** The Tool object as listed (name, description, inputSchema, outputSchema?, annotations...). */
  readonly definition: Readonly<Record<string, unknown>> & { readonly name: string };
  readonly behavior: FixtureBehavior;
  /** Answer the call only after this long (a slow or hanging tool). */
  readonly delayMs: number;
}

/**
 * The tools file: a JSON array (or `{ "tools": [...] }`) of entries
 *   { name, title?, description?, inputSchema?, outputSchema?, annotations?, _meta?,
 *     result?: CallToolResult, echo?: true, error?: string, delay_ms?: number,
 *     progress?: { steps: number, interval_ms: number }, ask?: { method, params? } }
 * `result` is returned as is; `echo` returns the call's arguments as JSON text (and as
 * structuredContent); `error` returns an isError result with that text; `progress` reports that many
 * steps (notifications/progress, when the call carries a token) before answering; `ask` sends its client
 * that request (sampling/createMessage, elicitation/create or roots/list) and answers with the reply, or
 * with an isError result naming the error it got. inputSchema defaults
 * to {"type":"object"} when absent; a present one is listed as written, even when it is not a
 * valid schema (`null`), so a test can serve a malformed definition. A name listed twice is a
 * mistake in the file unless the later entry says `duplicate: true` (a faulty upstream).
 */
export function parseFixtureTools(value: unknown, source: string): FixtureTool[] {
  const list = Array.isArray(value) ? value : isRecord(value) && Array.isArray(value['tools']) ? value['tools'] : undefined;
  if (list === undefined) throw new Error(`${source}: expected an array of tools or {"tools": [...]}`);
  const seen = new Set<string>();
  return list.map((entry: unknown, index: number) => {
    if (!isRecord(entry) || typeof entry['name'] !== 'string' || entry['name'] === '') {
      throw new Error(`${source}: tools[${index}] needs a non-empty string name`);
    }
    const { result, echo, error, delay_ms: delay, duplicate, progress, ask, ...rest } = entry;
    const name = entry['name'];
    if (seen.has(name) && duplicate !== true) throw new Error(`${source}: tool ${name} is listed twice (mark the later entry "duplicate": true to mean it)`);
    seen.add(name);
    return {
      definition: { ...rest, name, inputSchema: Object.hasOwn(rest, 'inputSchema') ? rest['inputSchema'] : { type: 'object' } },
      behavior: ask !== undefined ? askBehavior(name, ask, source) : progress === undefined ? behaviorOf(name, result, echo, error, source) : progressBehavior(name, progress, source),
      delayMs: typeof delay === 'number' && delay > 0 ? delay : 0,
    };
  });
}

export function readFixtureToolsFile(path: string): FixtureTool[] {
  return parseFixtureTools(JSON.parse(readFileSync(path, 'utf8')) as unknown, path);
}

function behaviorOf(name: string, result: unknown, echo: unknown, error: unknown, source: string): FixtureBehavior {
  if (echo === true) return { kind: 'echo' };
  if (typeof error === 'string') return { kind: 'error', message: error };
  if (result === undefined) return { kind: 'canned', result: { content: [{ type: 'text', text: `${name}: ok` }] } };
  if (!isRecord(result)) throw new Error(`${source}: tool ${name}: result must be a CallToolResult object`);
  return { kind: 'canned', result };
}

function progressBehavior(name: string, progress: unknown, source: string): FixtureBehavior {
  const steps = isRecord(progress) ? progress['steps'] : undefined;
  const interval = isRecord(progress) ? progress['interval_ms'] : undefined;
  if (typeof steps !== 'number' || !Number.isInteger(steps) || steps < 1 || typeof interval !== 'number' || interval < 0) {
    throw new Error(`${source}: tool ${name}: progress must be { "steps": a positive integer, "interval_ms": a number >= 0 }`);
  }
  return { kind: 'progress', steps, intervalMs: interval };
}

const ASKED: readonly string[] = ['sampling/createMessage', 'elicitation/create', 'roots/list'];

function askBehavior(name: string, ask: unknown, source: string): FixtureBehavior {
  const method = isRecord(ask) ? ask['method'] : undefined;
  const params = isRecord(ask) ? ask['params'] : undefined;
  if (typeof method !== 'string' || !ASKED.includes(method) || (params !== undefined && !isRecord(params))) {
    throw new Error(`${source}: tool ${name}: ask must be { "method": one of ${ASKED.join(', ')}, "params"?: object }`);
  }
  return { kind: 'ask', method: method as AskedMethod, ...(params === undefined ? {} : { params }) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
