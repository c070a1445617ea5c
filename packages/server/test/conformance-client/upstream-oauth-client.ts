// The gateway's upstream OAuth client as a command for the MCP conformance suite's client mode
// (`conformance client --command "tsx test/conformance-client/upstream-oauth-client.ts"`): the suite
// appends its server URL, and this starts a real gateway (temp data directory, 127.0.0.1:0) whose one
// upstream is that URL, exactly as an operator would configure it. It then does what a person does:
// starts the login over REST, follows the authorization URL (the suite's authorization server redirects
// at once; the redirect is read from its Location instead of a loopback listener), hands the redirect's
// query to POST /api/v1/oauth/callback, waits for the upstream to be ready, and lists and calls its
// tools through the gateway's /mcp. Exit 0 when the call went through, 1 otherwise.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type * as ServerPackage from '../../src/index.js';
import type { RunningGateway } from '../../src/gateway.js';

// The built gateway (the suite starts this command once per scenario: loading the sources through tsx
// each time would cost seconds); the types are the sources'.
const { startGateway, validateAndResolve } = (await import(new URL('../../dist/index.js', import.meta.url).href)) as typeof ServerPackage;

const API_KEY = 'conformance-admin-key-0123456789';
const SERVER = 'upstream';
const SETTLE_MS = 15_000;
/** Logins before giving up: the suite counts more than three authorization requests as a loop. */
const MAX_LOGINS = 3;

interface ScenarioContext {
  readonly client_id?: string;
  readonly client_secret?: string;
}

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  if (url === undefined || !/^https?:\/\//.test(url)) {
    process.stderr.write('usage: upstream-oauth-client.ts <server URL>\n');
    return 1;
  }
  const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as ScenarioContext;
  const dataDir = mkdtempSync(join(tmpdir(), 'mcpproxy-conformance-'));
  const oauth = context.client_id === undefined ? {} : { oauth: { client_id: context.client_id, ...(context.client_secret === undefined ? {} : { client_secret: context.client_secret }) } };
  const config = validateAndResolve(
    { listen: '127.0.0.1:0', data_dir: dataDir, api_key: API_KEY, reconnect_initial_delay_ms: 60_000, reconnect_max_delay_ms: 60_000, servers: [{ name: SERVER, url, quarantined: false, ...oauth }] },
    join(dataDir, 'conformance.json'),
  );
  if (!config.ok) throw new Error(config.error.message);
  const started = await startGateway(config.config, { log: (line) => process.stderr.write(`gateway: ${line}\n`) });
  if (!started.ok) throw new Error(started.error.message);
  const gateway = started.gateway;
  try {
    // A person logs in when the gateway says so (oauth_required, or a call that needs more scope),
    // and gives up after a few tries rather than looping.
    for (let logins = 0; ; logins += 1) {
      const state = await settle(gateway);
      if (state === 'ready') {
        const failure = await callTools(gateway);
        if (failure === undefined) return 0;
        if (!failure.includes('mcpproxy auth login') || logins >= MAX_LOGINS) throw new Error(failure);
      } else if (state !== 'pending_auth' || logins >= MAX_LOGINS) {
        throw new Error(`the upstream is ${state}: ${lastError(gateway) ?? 'no error recorded'}`);
      }
      await login(gateway);
    }
  } finally {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Start, the browser's hop through the authorization endpoint, the callback: as `mcpproxy auth login` does it. */
async function login(gateway: RunningGateway): Promise<void> {
  const start = await rest(gateway, 'POST', `/servers/${SERVER}/oauth/login`);
  const authorizationUrl = start['authorization_url'] as string;
  const redirectUri = start['redirect_uri'] as string;
  process.stderr.write(`authorization URL: ${authorizationUrl}\n`);
  const answer = await fetch(authorizationUrl, { redirect: 'manual' });
  await answer.text();
  const location = answer.headers.get('location');
  if (location === null || !location.startsWith(redirectUri)) throw new Error(`the authorization endpoint answered ${answer.status} without a redirect to ${redirectUri}`);
  const query = Object.fromEntries(new URL(location).searchParams);
  await rest(gateway, 'POST', '/oauth/callback', query, false);
}

/** Lists and calls the upstream's tools through the gateway; the first failure's text, or undefined. */
async function callTools(gateway: RunningGateway): Promise<string | undefined> {
  const client = new Client({ name: 'conformance-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url!)));
  try {
    const { tools } = await client.listTools();
    const upstreamTools = tools.filter((tool) => tool.name.startsWith(`${SERVER}:`));
    if (upstreamTools.length === 0) return 'the gateway serves no tool of the upstream';
    for (const tool of upstreamTools) {
      const result = (await client.callTool({ name: tool.name, arguments: {} })) as { isError?: boolean; content?: { text?: string }[] };
      if (result.isError === true) return `${tool.name}: ${result.content?.[0]?.text ?? 'tool error'}`;
    }
    return undefined;
  } finally {
    await client.close();
  }
}

async function rest(gateway: RunningGateway, method: string, path: string, body?: unknown, withKey = true): Promise<Record<string, unknown>> {
  const response = await fetch(`${gateway.origin!}/api/v1${path}`, {
    method,
    headers: { ...(withKey ? { 'x-api-key': API_KEY } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${String(answer['message'])}`);
  return answer;
}

/** Waits until the upstream's connection leaves the states of an attempt in progress. */
async function settle(gateway: RunningGateway): Promise<string> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const state = gateway.runtime.current().snapshot.servers.get(SERVER)?.connection.state ?? 'connecting';
    if (!['connecting', 'authenticating', 'discovering', 'disconnected'].includes(state) || Date.now() > deadline) return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function lastError(gateway: RunningGateway): string | undefined {
  return gateway.runtime.current().snapshot.servers.get(SERVER)?.connection.last_error;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`upstream-oauth-client: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
