// When the real gateway cannot give an honest verdict (its activity log refuses the record that
// must be written before answering), every in-band surface says so: -32603 on the rider and on
// resolve, a tool error in check mode, never a reduced verdict. The listing itself keeps serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ID } from '@mcpproxy/schema';
import type { Store } from '../src/store/store.js';
import { FailingActivityStore } from './failing-activity-store.js';
import { ERAS, fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { negotiating, openRawSession } from './raw-mcp-session.js';

let dir: TempDir;
let gw: TestGateway;
let store: FailingActivityStore;

beforeAll(async () => {
  dir = new TempDir();
  const alpha = dir.tools('alpha', [{ name: 'read', echo: true, annotations: { readOnlyHint: true } }]);
  gw = await startTestGateway(dir, { servers: [fixtureServer('alpha', alpha)] }, {
    wrapStore: (inner: Store) => (store = new FailingActivityStore(inner)),
  });
  await waitForState(gw.gateway, serverReady('alpha'));
});

afterAll(async () => {
  await gw?.close();
  dir?.remove();
});

describe.each(ERAS)('with the activity log refusing writes, on %s', (era) => {
  it('refuses the rider with -32603, resolve with -32603, check mode with a tool error; then recovers', async () => {
    const session = await openRawSession(gw.url, era, { capabilities: negotiating(era) });
    const rider = { _meta: { [EXTENSION_ID]: { tools: [{ id: 'alpha:read' }] } } };
    try {
      store.failing = true;
      const listed = await session.request('tools/list', rider);
      expect(listed.result).toBeUndefined();
      expect(listed.error?.code).toBe(-32603);
      expect(listed.error?.message).toMatch(/no verdict was computed/);
      const resolved = await session.request('tools/resolve', { name: 'alpha:read' });
      expect(resolved.error?.code).toBe(-32603);
      const checked = await session.request('tools/call', { name: 'describe_tool', arguments: { tool_ids: ['alpha:read'], check: true } });
      expect(checked.result.isError).toBe(true);
      expect(checked.result.content[0].text).toBe('describe_tool: the activity record could not be written; no verdict was computed');
      // The core listing needs no record and stays honest.
      expect((await session.request('tools/list')).result.tools.map((t: { name: string }) => t.name)).toEqual(['describe_tool', 'alpha:read']);
      expect(store.refused).toBeGreaterThanOrEqual(3);

      store.failing = false;
      const again = await session.request('tools/list', rider);
      expect(again.result._meta[EXTENSION_ID].verdict).toBe('ready');
    } finally {
      store.failing = false;
      await session.close();
    }
  });
});
