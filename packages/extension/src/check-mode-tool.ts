import { MAX_TOOLS } from '@mcpproxy/schema';
import type { Tool } from '@modelcontextprotocol/server';
import { CHECK_MODE_TOOL } from './check-mode.js';

/**
 * The check-mode tool the extension can serve on a server that has no describe_tool of its own:
 * check mode only (a gateway's describe_tool also returns definitions without `check`). A client
 * whose session cannot carry the rider falls back to it (@mcpproxy/client does).
 */
export const CHECK_MODE_TOOL_DEFINITION: Tool = {
  name: CHECK_MODE_TOOL,
  title: 'Check required tools',
  description:
    `Checks whether up to ${MAX_TOOLS} of this server's tools are usable right now. Call it with { tool_ids, check: true } ` +
    '(filters: an annotation policy) and it returns { verdict, checked_at, request_id, results } as JSON text; per tool: ' +
    'status, and for an unavailable one reason, retryable, action, detail, remediation.',
  inputSchema: {
    type: 'object',
    properties: {
      tool_ids: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: MAX_TOOLS, description: `The names of the tools to check (1-${MAX_TOOLS}).` },
      check: { type: 'boolean', const: true, description: 'Must be true: this tool only checks availability.' },
      filters: {
        type: 'object',
        description: 'Annotation policy.',
        properties: { read_only_only: { type: 'boolean' }, exclude_destructive: { type: 'boolean' }, exclude_open_world: { type: 'boolean' } },
        additionalProperties: false,
      },
    },
    required: ['tool_ids', 'check'],
    additionalProperties: false,
  },
  annotations: { title: 'Check required tools', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};
