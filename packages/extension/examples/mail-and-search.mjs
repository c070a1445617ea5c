// A plain MCP server (not a gateway) that answers the app.mcpproxy/required-tools rider on both
// protocol revisions: send_email is unavailable until SMTP_PASSWORD is set, search while its index
// warms up (SEARCH_WARMUP_MS, 5 s by default). MCP over stdio; an MCP client starts it:
//   node examples/mail-and-search.mjs
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { RequiredToolsExtension } from '@mcpproxy/extension';

const smtpPassword = process.env.SMTP_PASSWORD;
const indexReadyAt = Date.now() + Number(process.env.SEARCH_WARMUP_MS ?? 5000);
const indexReady = () => Date.now() >= indexReadyAt;

// The server says why a tool cannot be used right now (undefined: it can); the extension does the
// rest: the rider's rules, the 50-tool cap, dedup, not_found and the annotation policy, the wire.
const requiredTools = new RequiredToolsExtension({
  availability: {
    send_email: () =>
      smtpPassword
        ? undefined
        : {
            reason: 'tool_blocked_by_user',
            detail: 'send_email is off until the SMTP password is set.',
            remediation: 'Set SMTP_PASSWORD in the environment of mail-and-search, then restart it.',
          },
    search: () => (indexReady() ? undefined : { reason: 'server_initializing', detail: 'The search index is still warming up.', remediation: 'Retry in a few seconds.' }),
  },
  // One activity record per check, before the answer: here one JSON line on stderr.
  activity: (record) => process.stderr.write(`${JSON.stringify(record)}\n`),
  // describe_tool check mode, for clients whose session cannot carry the rider.
  checkModeTool: true,
});

// One server per connection, for either revision (serveStdio picks the era from the first message).
serveStdio(({ era }) => {
  const server = new McpServer({ name: 'mail-and-search', version: '1.0.0' });
  // Before the first tool: McpServer registers its tools/list then, and the extension carries its rider on it.
  requiredTools.attach(server, { era });

  const sendEmail = server.registerTool(
    'send_email',
    {
      description: 'Send an email.',
      inputSchema: fromJsonSchema({ type: 'object', properties: { to: { type: 'string' }, subject: { type: 'string' } }, required: ['to', 'subject'] }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    async ({ to, subject }) => ({ content: [{ type: 'text', text: `sent "${subject}" to ${to}` }] }),
  );
  // Not served until it can work: calls are refused for the same reason the rider gives.
  if (!smtpPassword) sendEmail.disable();

  server.registerTool(
    'search',
    {
      description: 'Search the indexed documents.',
      inputSchema: fromJsonSchema({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query }) =>
      indexReady()
        ? { content: [{ type: 'text', text: `no documents match "${query}"` }] }
        : { isError: true, content: [{ type: 'text', text: 'The search index is still warming up; retry in a few seconds.' }] },
  );
  return server;
});
