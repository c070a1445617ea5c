// What every runtime adapter test runs against: the real gateway with `demo` ready (echo,
// get_greeting) and `off` disabled, and a real published MCP server that does not know the
// extension (server-everything over stdio), for the fallback.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { fixtureServer, Scratch, startGateway, waitForServer, type Gateway } from './client-harness.js';

const require = createRequire(import.meta.url);

/** server-everything's stdio entry: `node EVERYTHING_MAIN stdio`. */
export const EVERYTHING_MAIN = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

/** An agent token for REST (the fallback an agent uses), scoped to both servers. */
export const AGENT_TOKEN = 'adapter-test-agent-token-0123456789';

export const READY_IDS = ['demo:echo', 'demo:get_greeting'];
/** One ready, one on a disabled server, one misspelt. */
export const BLOCKED_IDS = ['demo:echo', 'off:echo', 'demo:ech'];

export async function startAdapterGateway(scratch: Scratch): Promise<Gateway> {
  const echo = { name: 'echo', echo: true, description: 'Echo the arguments', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } } as const;
  const gateway = await startGateway(scratch, {
    servers: [fixtureServer(scratch, 'demo', [echo, { name: 'get_greeting' }]), fixtureServer(scratch, 'off', [echo], { enabled: false })],
    agent_tokens: [{ name: 'agent', token: AGENT_TOKEN, allowed_servers: ['demo', 'off'] }],
  });
  await waitForServer(gateway, 'demo', ['ready']);
  return gateway;
}

/** This test file's gateway: started before its tests, stopped (its scratch removed) after them. */
export function adapterGateway(): Gateway {
  let scratch: Scratch | undefined;
  let started: Gateway | undefined;
  beforeAll(async () => {
    scratch = new Scratch();
    started = await startAdapterGateway(scratch);
  });
  afterAll(async () => {
    await started?.stop();
    scratch?.remove();
  });
  const current = (): Gateway => {
    if (started === undefined) throw new Error('the adapter gateway starts in beforeAll');
    return started;
  };
  return {
    get origin() {
      return current().origin;
    },
    get mcpUrl() {
      return current().mcpUrl;
    },
    stop: () => current().stop(),
  };
}
