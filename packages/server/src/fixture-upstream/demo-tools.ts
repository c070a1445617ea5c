import type { FixtureTool } from './fixture-tools.js';
import { parseFixtureTools } from './fixture-tools.js';

/** The bundled demo upstream's tools: what a new user sees through the embedded default. */
export function demoTools(): FixtureTool[] {
  return parseFixtureTools(
    [
      {
        name: 'echo',
        title: 'Echo',
        description: 'Returns the arguments it was called with, as JSON.',
        inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Text to echo back' } }, required: ['text'] },
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        echo: true,
      },
      {
        name: 'get_greeting',
        title: 'Greeting',
        description: 'Returns a fixed greeting from the mcpproxy demo upstream.',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        result: { content: [{ type: 'text', text: 'Hello from the mcpproxy demo upstream.' }] },
      },
      {
        name: 'delete_everything',
        title: 'Delete everything (demo)',
        description: 'A pretend destructive tool for trying annotation policies. It deletes nothing.',
        inputSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
        result: { content: [{ type: 'text', text: 'Nothing was deleted: this is the demo upstream.' }] },
      },
    ],
    'demo tools',
  );
}
