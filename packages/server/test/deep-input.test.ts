// Input nested far deeper than any real value (100,000 levels) on every surface that takes JSON.
// tools/call arguments past the gateway's depth limit are refused up front with invalid params
// naming the limit, on both revisions, and nothing reaches the upstream (before, JSON.stringify
// overflowed the stack sending the call, and the answer blamed the upstream). Every other deep
// input on /mcp and REST gets the ordinary answer to a bad or unknown value, never a stack overflow.
import { describe, expect, it } from 'vitest';
import { MAX_ARGUMENT_DEPTH } from '../src/mcp/argument-depth.js';
import { echoGatewayForFile } from './echo-gateway.js';
import { openRawSession, type RawEra } from './raw-mcp-session.js';
import { ADMIN_KEY } from './rest-client.js';

const DEEP = 100_000;
/** `depth` levels of containers: depth 1 is `[1]`. */
const deepArray = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const echo = echoGatewayForFile();

describe.each(['legacy', 'modern'] as RawEra[])('deep input on /mcp (%s)', (era) => {
  it(`refuses tools/call arguments deeper than ${MAX_ARGUMENT_DEPTH} levels with -32602, sending nothing upstream`, async () => {
    const session = await openRawSession(echo.gw().url, era);
    try {
      const before = echo.count();
      // The arguments object is level 1: {"x": <63 levels>} is 64 deep, {"x": <64 levels>} is 65.
      for (const args of [`{"x":${deepObject(DEEP)}}`, `{"x":${deepArray(DEEP)}}`, `{"x":${deepArray(MAX_ARGUMENT_DEPTH)}}`]) {
        for (const name of ['up:echo', 'describe_tool']) {
          const answer = await session.requestText('tools/call', `"name":${JSON.stringify(name)},"arguments":${args}`);
          expect(answer.error, answer.text.slice(0, 300)).toEqual({
            code: -32602,
            message: `Invalid params: params.arguments nests deeper than ${MAX_ARGUMENT_DEPTH} levels, the gateway's limit for tool arguments; nothing was sent to the upstream`,
          });
        }
      }
      // At the limit the call goes through; the fixture counts exactly that one message.
      const atLimit = await session.requestText('tools/call', `"name":"up:echo","arguments":{"x":${deepArray(MAX_ARGUMENT_DEPTH - 1)}}`);
      expect(atLimit.error).toBeUndefined();
      expect(atLimit.result.isError).toBeUndefined();
      expect(echo.count()).toBe(before + 1);
    } finally {
      await session.close();
    }
  });

  it('answers every other deep params value as a bad or ignored value, never a stack overflow', async () => {
    const session = await openRawSession(echo.gw().url, era);
    try {
      for (const [method, members] of [
        ['tools/list', `"x":${deepArray(DEEP)}`],
        ['tools/list', `"x":${deepObject(DEEP)}`],
        ['tools/resolve', `"name":"up:echo","x":${deepObject(DEEP)}`],
        ['tools/resolve', `"name":${deepArray(DEEP)}`],
        ['ping', `"x":${deepArray(DEEP)}`],
      ] as const) {
        const answer = await session.requestText(method, members);
        expect(answer.status, `${method} ${members.slice(0, 30)}`).toBeLessThan(500);
        expect(answer.text).not.toMatch(/call stack/i);
        expect(answer.error?.code, `${method} ${members.slice(0, 30)}: ${answer.text.slice(0, 200)}`).not.toBe(-32603);
      }
      // Still serving.
      expect((await session.request('tools/list')).result.tools.map((t: { name: string }) => t.name)).toContain('up:echo');
    } finally {
      await session.close();
    }
  });
});

describe('deep input on REST', () => {
  it('answers 400 invalid_body naming the first fault, never a stack overflow', async () => {
    for (const [path, body] of [
      ['/api/v1/preflight', `{"tools":${deepArray(DEEP)}}`],
      ['/api/v1/preflight', deepObject(DEEP)],
      ['/api/v1/preflight', `{"tools":[{"id":"up:echo","pin_hash":${deepArray(DEEP)}}]}`],
      ['/api/v1/preflight', `{"tools":[{"id":"up:echo"}],"policy":${deepObject(DEEP)}}`],
      ['/api/v1/tokens', deepObject(DEEP)],
    ] as const) {
      const response = await fetch(`${echo.gw().gateway.origin}${path}`, { method: 'POST', headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' }, body });
      const answer = (await response.json()) as { code: string; message: string };
      expect(response.status, `${path} ${body.slice(0, 30)}`).toBe(400);
      expect(answer.code).toBe('invalid_body');
      expect(answer.message).not.toMatch(/call stack/i);
    }
  });
});
