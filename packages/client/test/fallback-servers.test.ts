// Fallback proven against servers that are not the gateway:
// - a plain MCP server that does not know the extension (the fixture upstream over HTTP, on both
//   revisions): preflight sends it nothing at all (no rider, no describe_tool call, even though it
//   has a tool of that name), then uses REST when given one, else a typed error;
// - a server that advertises the extension but ignores the rider: check mode answers, and an
//   unknown reason code is permanent, non-retryable and blocked whatever the wire says;
// - a server that advertises another settings version: no in-band carriage is tried.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Server, type CallToolResult, type ListToolsResult } from '@modelcontextprotocol/server';
import { SETTINGS_VERSION } from '@mcpproxy/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreflightError, preflight, requiredToolsCapabilities, resolve, ResolveError } from '../src/index.js';
import { connect, ERAS, FIXTURE_MAIN, fixtureServer, Scratch, startGateway, stopChild, waitForServer, type Gateway } from './client-harness.js';

const EXTENSION = 'app.mcpproxy/required-tools';
let scratch: Scratch;
let plain: { url: string; child: ChildProcess; countFile: string };
let gw: Gateway;

beforeAll(async () => {
  scratch = new Scratch();
  const countFile = scratch.file('plain.count', '0');
  const tools = scratch.file('plain.tools.json', JSON.stringify([{ name: 'describe_tool', echo: true }, { name: 'echo', echo: true }]));
  const child = spawn(process.execPath, [FIXTURE_MAIN, '--http', '0', '--tools', tools, '--count-file', countFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line !== undefined) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.on('exit', (code) => reject(new Error(`fixture exited ${code}`)));
  });
  plain = { url, child, countFile };
  gw = await startGateway(scratch, { servers: [fixtureServer(scratch, 'demo', [{ name: 'echo', echo: true }])] });
  await waitForServer(gw, 'demo', ['ready']);
});
afterAll(async () => {
  await gw?.stop();
  if (plain !== undefined) await stopChild(plain.child);
  scratch?.remove();
});

const received = () => Number(readFileSync(plain.countFile, 'utf8').trim() || '0');

describe.each(ERAS)('a plain MCP server (%s)', (era) => {
  it('gets no message from preflight; REST answers when given; else a typed error says why each carriage was not used', async () => {
    const client = await connect(plain.url, era, requiredToolsCapabilities());
    try {
      const before = received();
      const error = await preflight(client, ['demo:echo']).catch((e: unknown) => e);
      expect(received()).toBe(before);
      expect(error).toBeInstanceOf(PreflightError);
      expect((error as PreflightError).attempts).toEqual([
        { carriage: 'rider', outcome: 'skipped', reason: 'the server did not advertise app.mcpproxy/required-tools' },
        { carriage: 'check', outcome: 'skipped', reason: 'the server did not advertise app.mcpproxy/required-tools' },
        { carriage: 'rest', outcome: 'skipped', reason: 'no REST url given (options.rest)' },
      ]);
      const viaRest = await preflight(client, ['demo:echo'], { rest: { url: gw.origin, token: 'client-test-admin-key-0123456789' } });
      expect(received()).toBe(before);
      expect([viaRest.carriage, viaRest.verdict]).toEqual(['rest', 'ready']);
    } finally {
      await client.close();
    }
  });

  it('resolve on a server without tools/resolve is a typed error, not a verdict', async () => {
    const client = await connect(plain.url, era);
    try {
      const error = await resolve(client, 'echo').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResolveError);
      expect((error as ResolveError).code).toBe('resolve_failed');
    } finally {
      await client.close();
    }
  });
});

/** A 2025-11-25 SDK server in memory that advertises the extension with `settings` and answers check mode with `checkText`. */
async function fakeExtensionServer(settings: { version: number }, checkText: string) {
  const calls: string[] = [];
  const server = new Server({ name: 'fake', version: '1.0.0' }, { capabilities: { tools: {}, experimental: { [EXTENSION]: settings } } });
  server.setRequestHandler('tools/list', (request): ListToolsResult => {
    calls.push(`tools/list${request.params?._meta?.[EXTENSION] === undefined ? '' : '+rider'}`);
    return { tools: [{ name: 'describe_tool', inputSchema: { type: 'object' } }] };
  });
  server.setRequestHandler('tools/call', (request): CallToolResult => {
    calls.push(`tools/call ${request.params.name}`);
    return { content: [{ type: 'text', text: checkText }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 't', version: '1' }, { capabilities: requiredToolsCapabilities() });
  await client.connect(clientSide);
  return { client, calls, close: async () => { await client.close(); await server.close(); } };
}

describe('a server that advertises the extension', () => {
  const checkResult = {
    verdict: 'degraded_retryable',
    checked_at: '2026-08-19T09:00:00Z',
    request_id: 'req_1',
    results: [
      { id: 'a:one', status: 'ready' },
      { id: 'a:two', status: 'unavailable', reason: 'gateway_on_fire', retryable: true, action: 'restart', detail: 'a v2 code' },
    ],
  };

  it('but answers tools/list without a facet: check mode answers; an unknown code is permanent, non-retryable, blocked', async () => {
    const fake = await fakeExtensionServer({ version: SETTINGS_VERSION }, JSON.stringify(checkResult));
    try {
      const result = await preflight(fake.client, ['a:one', 'a:two']);
      expect(fake.calls).toEqual(['tools/list+rider', 'tools/call describe_tool']);
      expect(result.carriage).toBe('check');
      expect(result.attempts[0]).toEqual({ carriage: 'rider', outcome: 'failed', reason: 'the tools/list answer carries no facet (the extension was not negotiated on this request)' });
      expect(result.verdict).toBe('blocked');
      expect(result.tools[1]).toEqual({ id: 'a:two', status: 'unavailable', reason: 'gateway_on_fire', retryable: false, class: 'permanent', known: false, action: 'restart', detail: 'a v2 code' });
    } finally {
      await fake.close();
    }
  });

  it('a check-mode answer that is not a valid result is a failed carriage, never a guess', async () => {
    const fake = await fakeExtensionServer({ version: SETTINGS_VERSION }, JSON.stringify({ ...checkResult, verdict: 'fine' }));
    try {
      const error = await preflight(fake.client, ['a:one']).catch((e: unknown) => e);
      expect((error as PreflightError).code).toBe('no_carriage');
      expect((error as PreflightError).attempts[1]).toMatchObject({ carriage: 'check', outcome: 'failed' });
      expect((error as PreflightError).attempts[1]!.reason).toContain('invalid CheckModeResult');
    } finally {
      await fake.close();
    }
  });

  it.each([
    ['a later settings version: still used (a bump only adds codes, read leniently)', SETTINGS_VERSION + 1],
    ['an earlier settings version: still used (it emits only codes this client knows)', 1],
  ])('with %s', async (_name, version) => {
    const fake = await fakeExtensionServer({ version }, JSON.stringify(checkResult));
    try {
      const result = await preflight(fake.client, ['a:one', 'a:two']);
      expect(fake.calls).toEqual(['tools/list+rider', 'tools/call describe_tool']);
      expect(result.carriage).toBe('check');
      expect(result.tools[1]).toMatchObject({ id: 'a:two', known: false, class: 'permanent', retryable: false });
    } finally {
      await fake.close();
    }
  });

  it('with a settings version below 1: neither the rider nor check mode is tried', async () => {
    const fake = await fakeExtensionServer({ version: 0 }, JSON.stringify(checkResult));
    try {
      const error = await preflight(fake.client, ['a:one']).catch((e: unknown) => e);
      expect(fake.calls).toEqual([]);
      expect((error as PreflightError).attempts[0]!.reason).toBe(`the server advertises settings version 0, which is not a settings version (this client speaks ${SETTINGS_VERSION})`);
    } finally {
      await fake.close();
    }
  });
});
