import { dedupeToolIds, parseToolId } from '@mcpproxy/evaluator';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { MAX_TOOLS } from '@mcpproxy/schema';
import { compareServed, seekServed, type ServedEntry, type ServedListing } from './served-listing.js';

export const DESCRIBE_TOOL_NAME = 'describe_tool';
export const DESCRIBE_TOOL_MAX_IDS = 5;

/** The gateway's built-in tool: full definitions of served tools, so an agent can list names cheaply and fetch schemas on demand. */
export const DESCRIBE_TOOL: Tool = {
  name: DESCRIBE_TOOL_NAME,
  title: 'Describe gateway tools',
  description:
    `Returns the full definitions (description, input and output schemas, annotations) of up to ${DESCRIBE_TOOL_MAX_IDS} tools ` +
    'served by this gateway, by their "server:tool" IDs. IDs this session cannot use are reported as not_found. ' +
    `With check: true it instead checks whether up to ${MAX_TOOLS} tools are usable right now and returns ` +
    '{ verdict, checked_at, request_id, results } (per tool: status, and for an unavailable one reason, retryable, action, ' +
    'detail, remediation); filters applies an annotation policy in that mode.',
  inputSchema: {
    type: 'object',
    properties: {
      tool_ids: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        maxItems: MAX_TOOLS,
        description: `Tool IDs in the form "server:tool" (at most ${DESCRIBE_TOOL_MAX_IDS} without check, ${MAX_TOOLS} with check: true).`,
      },
      check: { type: 'boolean', description: 'Check availability (a verdict per tool) instead of describing.' },
      filters: {
        type: 'object',
        description: 'Annotation policy for check: true.',
        properties: {
          read_only_only: { type: 'boolean' },
          exclude_destructive: { type: 'boolean' },
          exclude_open_world: { type: 'boolean' },
        },
        additionalProperties: false,
      },
    },
    required: ['tool_ids'],
    additionalProperties: false,
  },
  annotations: { title: 'Describe gateway tools', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

export type DescribeToolRequest =
  | { readonly mode: 'plain'; readonly toolIds: readonly string[] }
  | { readonly mode: 'check'; readonly args: Readonly<Record<string, unknown>> }
  | { readonly mode: 'invalid'; readonly message: string };

/** Splits the arguments into plain mode, check mode (validated by the required-tools extension) or an argument error. */
export function parseDescribeToolArguments(args: Readonly<Record<string, unknown>> | undefined): DescribeToolRequest {
  if (args === undefined) return { mode: 'invalid', message: 'provide tool_ids: 1-5 tool ids' };
  if ('check' in args && typeof args.check !== 'boolean') return { mode: 'invalid', message: 'check must be a boolean; no verdict was computed' };
  if (args.check === true) return { mode: 'check', args };
  if ('filters' in args) return { mode: 'invalid', message: 'filters requires check: true; no verdict was computed' };
  const unknown = Object.keys(args).filter((key) => key !== 'tool_ids' && key !== 'check');
  if (unknown.length > 0) return { mode: 'invalid', message: `unknown argument: ${unknown.join(', ')}` };
  const ids = args.tool_ids;
  if (!Array.isArray(ids) || ids.length === 0) return { mode: 'invalid', message: `provide 1-${DESCRIBE_TOOL_MAX_IDS} tool ids` };
  if (ids.length > DESCRIBE_TOOL_MAX_IDS) {
    return { mode: 'invalid', message: `too many tool_ids: ${ids.length} (max ${DESCRIBE_TOOL_MAX_IDS} without check:true)` };
  }
  if (!ids.every((id): id is string => typeof id === 'string')) return { mode: 'invalid', message: 'tool_ids must be strings' };
  return { mode: 'plain', toolIds: ids };
}

/** Plain mode: the served definitions, in request order (first occurrence of each ID). */
export function describeServedTools(toolIds: readonly string[], listing: ServedListing): CallToolResult {
  const results = dedupeToolIds(toolIds.map((id) => ({ id }))).map(({ id }) => {
    const entry = findServed(listing, id);
    return entry === undefined ? { id, error: 'not_found' } : { id, tool: entry.definition };
  });
  return { content: [{ type: 'text', text: JSON.stringify({ tools: results }) }] };
}

export function describeToolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `describe_tool: ${message}` }] };
}

/** The served upstream tool named `id` (halves trimmed, as dispatch reads it); built-ins have no `server:` and never match. */
export function findServed(listing: ServedListing, id: string): ServedEntry | undefined {
  const parsed = parseToolId(id);
  if (!parsed.ok) return undefined;
  const key = { server: parsed.server, tool: parsed.tool };
  const entry = listing.entries[seekServed(listing, key, false)];
  return entry !== undefined && compareServed(entry, key) === 0 ? entry : undefined;
}
