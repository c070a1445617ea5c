// What every runtime adapter test runs against: the real gateway with `demo` ready (echo,
// get_greeting) and `off` disabled, and a real published MCP server that does not know the
// extension (server-everything over stdio), for the fallback.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import type { RequiredToolsUnavailableError } from '../src/index.js';
import { fixtureServer, startGateway, waitForServer, type Gateway, type Scratch } from './client-harness.js';

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

/**
 * The blocked verdict of BLOCKED_IDS as a run's error must carry it: each unavailable tool with its
 * reason and remediation, in the list and in the message.
 */
export function expectBlockedError(error: RequiredToolsUnavailableError): void {
  expect([error.code, error.verdict]).toEqual(['tools_unavailable', 'unknown_ids']);
  expect(error.unavailable).toMatchObject([
    { id: 'off:echo', reason: 'server_disabled', retryable: false, action: 'enable', remediation: 'Enable it: mcpproxy servers enable off' },
    { id: 'demo:ech', reason: 'not_found', retryable: false, did_you_mean: ['demo:echo'], remediation: expect.stringMatching(/\S/) },
  ]);
  for (const tool of error.unavailable) expect(error.message).toContain(`${tool.id} (${tool.reason}: ${tool.detail} remediation: ${tool.remediation})`);
}
