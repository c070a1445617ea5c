// The published state: immutable, versioned, one per change; reading it is O(1) and does no I/O.
import { expect, it } from 'vitest';
import { cleanupAfterEach } from './cleanup-after-each.js';
import type { PublishedState } from '../src/state/gateway-runtime.js';
import { eventually, tool } from './fixture-process.js';
import { fixtureServer, startHarness } from './runtime-harness.js';

const { defer, scratch } = cleanupAfterEach();

it('publishes a new frozen version on every change; old versions never change', async () => {
  const s = scratch();
  const file = s.writeTools('tools.json', [tool('a'), tool('b')]);
  const h = await startHarness(s, {
    servers: [fixtureServer('fx', ['--tools', file, '--count-file', s.file('count')], { quarantined: false })],
    profiles: [{ name: 'dev', servers: ['fx'] }],
  });
  defer(() => h.stop());
  const seen: PublishedState[] = [];
  const unsubscribe = h.runtime.subscribe((state) => seen.push(state));
  await h.until('fx', (srv) => srv.connection.state === 'ready');

  const before = h.runtime.current();
  expect(Object.isFrozen(before)).toBe(true);
  expect(Object.isFrozen(before.snapshot)).toBe(true);
  // built on first use, then the same object for this version
  expect(before.prepared.snapshot).toBe(before.snapshot);
  expect(before.prepared).toBe(before.prepared);
  expect(before.snapshot.profiles.get('dev')).toEqual(['fx']);
  const beforeServer = before.snapshot.servers.get('fx')!;
  expect(Object.isFrozen(beforeServer)).toBe(true);

  await h.runtime.setToolDisabled('fx', 'a', true);
  const after = h.runtime.current();
  expect(after.snapshot.version).toBeGreaterThan(before.snapshot.version);
  expect(after.snapshot.servers.get('fx')!.approvals.get('a')!.user_disabled).toBe(true);
  // the earlier snapshot still says what it said
  expect(beforeServer.approvals.get('a')!.user_disabled).toBe(false);
  // unchanged tool definitions are shared, not copied
  expect(after.snapshot.servers.get('fx')!.tools).toBe(beforeServer.tools);

  // listeners saw every version, strictly increasing, ending at the current one
  const versions = seen.map((state) => state.snapshot.version);
  expect(versions).toEqual([...versions].sort((x, y) => x - y));
  expect(new Set(versions).size).toBe(versions.length);
  expect(seen.at(-1)).toBe(after);
  unsubscribe();
  await h.runtime.setToolDisabled('fx', 'a', false);
  expect(seen.at(-1)).toBe(after);
});

it('reading the state does no upstream I/O; every message sent is counted', async () => {
  const s = scratch();
  const h = await startHarness(s, {
    servers: [
      fixtureServer('one', ['--count-file', s.file('one')], { quarantined: false }),
      fixtureServer('two', ['--count-file', s.file('two'), '--page-size', '1'], { quarantined: false }),
    ],
  });
  defer(() => h.stop());
  await h.until('one', (srv) => srv.connection.state === 'ready');
  await h.until('two', (srv) => srv.connection.state === 'ready');
  const sent = h.runtime.upstreamMessageCount();
  // one: initialize, initialized, tools/list; two: initialize, initialized, three one-tool pages
  expect(sent).toBe(3 + 5);
  expect(s.readCount('one') + s.readCount('two')).toBe(sent);
  for (let i = 0; i < 1000; i += 1) h.runtime.current().snapshot.servers.get('one')!.tools.get('echo');
  expect(h.runtime.upstreamMessageCount()).toBe(sent);
  // The control, and a fence: the call is counted on both sides, and anything the reads had sent
  // would sit ahead of it on one's pipe.
  await h.runtime.callTool('one', 'echo', { text: 'x' });
  expect(h.runtime.upstreamMessageCount()).toBe(sent + 1);
  await eventually(() => expect(s.readCount('one') + s.readCount('two')).toBe(sent + 1));
});
