// A caller's bad params on /mcp are invalid params (-32602) with a plain message naming the field,
// on both revisions: never an internal error (-32603), never the schema library's issue list as JSON.
import { describe, expect, it } from 'vitest';
import { echoGatewayForFile } from './echo-gateway.js';
import { negotiating, openRawSession, type RawEra } from './raw-mcp-session.js';

const echo = echoGatewayForFile();

const CASES: readonly (readonly [method: string, params: string, message: string])[] = [
  ['tools/list', '"cursor":5', 'Invalid params for tools/list: params.cursor: expected string, received number'],
  ['tools/list', '"cursor":null', 'Invalid params for tools/list: params.cursor: expected string, received null'],
  ['tools/list', '"cursor":{"page":2}', 'Invalid params for tools/list: params.cursor: expected string, received object'],
  ['tools/call', '"name":5', 'Invalid params for tools/call: params.name: expected string, received number'],
  ['tools/call', '"arguments":{}', 'Invalid params for tools/call: params.name: expected string, received undefined'],
  ['tools/call', '"name":"up:echo","arguments":"x"', 'Invalid params for tools/call: params.arguments: expected record, received string'],
  ['tools/call', '"name":"up:echo","arguments":[1]', 'Invalid params for tools/call: params.arguments: expected record, received array'],
  ['tools/resolve', '"name":5', 'Invalid params for tools/resolve: name: Invalid input: expected string, received number'],
  // Multi-round-trip retry fields the SDK would drop without a word.
  ['tools/call', '"name":"up:echo","inputResponses":{"user_name":12345}', 'Invalid params for tools/call: params.inputResponses.user_name: expected an input response object, received number'],
  ['tools/call', '"name":"up:echo","inputResponses":null', 'Invalid params for tools/call: params.inputResponses: expected an object of input responses, received null'],
  ['tools/call', '"name":"up:echo","inputResponses":"yes"', 'Invalid params for tools/call: params.inputResponses: expected an object of input responses, received string'],
  ['tools/call', '"name":"up:echo","requestState":5', 'Invalid params for tools/call: params.requestState: expected string, received number'],
  ['resources/read', '"uri":"mcpproxy://up/x","inputResponses":[1]', 'Invalid params for resources/read: params.inputResponses: expected an object of input responses, received array'],
  ['prompts/get', '"name":"up:p","inputResponses":{"a":[]}', 'Invalid params for prompts/get: params.inputResponses.a: expected an input response object, received array'],
];

describe.each(['legacy', 'modern'] as RawEra[])('bad params on /mcp (%s)', (era) => {
  it.each(CASES)('%s {%s}: -32602 naming the field', async (method, params, message) => {
    const session = await openRawSession(echo.gw().url, era, { capabilities: negotiating(era) });
    try {
      const before = echo.count();
      const answer = await session.requestText(method, params);
      expect(answer.error).toEqual({ code: -32602, message });
      // A fence on the same session: the fixture counts exactly this one call, so the bad one sent nothing.
      const fence = await session.request('tools/call', { name: 'up:echo', arguments: {} });
      expect(fence.error).toBeUndefined();
      expect(echo.count()).toBe(before + 1);
    } finally {
      await session.close();
    }
  });
});
