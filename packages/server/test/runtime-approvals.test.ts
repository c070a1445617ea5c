// The approval model of issue 4 through the runtime, on real fixtures, persisted in a real store.
import { classifyTool } from '@mcpproxy/evaluator';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach } from './cleanup-after-each.js';
import { tool } from './fixture-process.js';
import type { FixtureToolEntry , Scratch} from './fixture-process.js';
import { FailingActivityStore } from './failing-activity-store.js';
import { fixtureServer, startHarness } from './runtime-harness.js';
import type { Harness } from './runtime-harness.js';

const { defer, scratch } = cleanupAfterEach();

interface World {
  readonly s: Scratch;
  readonly h: Harness;
  /** Rewrites the fixture's tools file and signals it (SIGHUP: re-read + list_changed). */
  rewrite(tools: readonly FixtureToolEntry[]): void;
  /** Stops this runtime and starts a fresh one on the same data directory. */
  restartGateway(): Promise<Harness>;
}

async function world(
  tools: readonly FixtureToolEntry[],
  serverExtra: Record<string, unknown>,
  gateway: Record<string, unknown> = {},
): Promise<World> {
  const s = scratch();
  const file = s.writeTools('tools.json', tools);
  const config = {
    ...gateway,
    servers: [fixtureServer('fx', ['--tools', file, '--pid-file', s.file('pid'), '--count-file', s.file('count')], serverExtra)],
  };
  let current = await startHarness(s, config);
  defer(() => current.stop());
  return {
    s,
    get h() {
      return current;
    },
    rewrite(next) {
      s.writeTools('tools.json', next);
      process.kill(s.readCount('pid'), 'SIGHUP');
    },
    async restartGateway() {
      await current.stop();
      current = await startHarness(s, config);
      return current;
    },
  };
}

function statuses(h: Harness): Record<string, string> {
  return Object.fromEntries([...h.server('fx').approvals.values()].map((a) => [a.tool, a.status]));
}

function gate(h: Harness, name: string) {
  const snapshot = h.runtime.current().snapshot;
  return classifyTool(snapshot.servers.get('fx')!, name, snapshot.tool_quarantine);
}

/** The real store, except that saving approvals fails (as a full disk would). */
class FailingApprovalsStore extends FailingActivityStore {
  override saveApprovals(): Promise<void> {
    return Promise.reject(new Error('approvals cannot be saved (injected failure)'));
  }
}

describe('approval model', () => {
  it('an unquarantine whose baseline cannot be saved changes nothing: the server stays quarantined, in memory and in the store', async () => {
    const s = scratch();
    const file = s.writeTools('tools.json', [tool('a'), tool('b')]);
    const h = await startHarness(s, { servers: [fixtureServer('fx', ['--tools', file])] }, (store) => new FailingApprovalsStore(store));
    defer(() => h.stop());
    await h.until('fx', (srv) => srv.connection.state === 'ready');

    await expect(h.runtime.setQuarantined('fx', false)).rejects.toThrow('approvals cannot be saved');
    expect(h.server('fx').quarantined).toBe(true);
    expect((await h.store.listServerOverrides()).get('fx')?.quarantined).not.toBe(false);
    expect(statuses(h)).toEqual({ a: 'pending', b: 'pending' });
    // The next publication (a reconnect) still shows it quarantined.
    await h.runtime.restart('fx');
    await h.until('fx', (srv) => srv.connection.state === 'ready');
    expect(h.server('fx').quarantined).toBe(true);
  });

  it('a new server starts quarantined; its tools are indexed as pending; unquarantine approves them as the baseline', async () => {
    const w = await world([tool('a'), tool('b')], {});
    const listed = await w.h.until('fx', (srv) => srv.connection.state === 'ready');
    expect(listed.quarantined).toBe(true);
    expect(statuses(w.h)).toEqual({ a: 'pending', b: 'pending' });
    // a quarantined server is indexed with hashes (for review) but never called
    expect(listed.tools.get('a')?.hash).toMatch(/^sha256\/v1:[0-9a-f]{64}$/);
    const before = w.s.readCount('count');
    await expect(w.h.runtime.callTool('fx', 'a', {})).rejects.toMatchObject({ code: 'server_quarantined' });
    expect(w.s.readCount('count')).toBe(before);

    await w.h.runtime.setQuarantined('fx', false);
    expect(w.h.server('fx').quarantined).toBe(false);
    expect(statuses(w.h)).toEqual({ a: 'approved', b: 'approved' });
    expect(gate(w.h, 'a')).toBeUndefined();

    // a tool that appears after the baseline waits for approval
    w.rewrite([tool('a'), tool('b'), tool('c')]);
    await w.h.until('fx', (srv) => srv.tools.has('c'));
    expect(statuses(w.h)).toEqual({ a: 'approved', b: 'approved', c: 'pending' });
    expect(gate(w.h, 'c')).toBe('tool_pending_approval');

    // everything survives a gateway restart: the override, the baseline, the records
    const h2 = await w.restartGateway();
    const again = await h2.until('fx', (srv) => srv.connection.state === 'ready');
    expect(again.quarantined).toBe(false);
    expect(statuses(h2)).toEqual({ a: 'approved', b: 'approved', c: 'pending' });

    await h2.runtime.approveTools('fx', 'all-pending');
    expect(statuses(h2)).toEqual({ a: 'approved', b: 'approved', c: 'approved' });
  });

  it('a server stays quarantined across restarts until unquarantined, even though it is known by then', async () => {
    const w = await world([tool('a')], {});
    await w.h.until('fx', (srv) => srv.connection.state === 'ready');
    const h2 = await w.restartGateway();
    expect(h2.server('fx').quarantined).toBe(true);
    await h2.until('fx', (srv) => srv.connection.state === 'ready');
    expect(statuses(h2)).toEqual({ a: 'pending' });
    await h2.runtime.setQuarantined('fx', false);
    await h2.runtime.setQuarantined('fx', true);
    expect(h2.server('fx').quarantined).toBe(true);
    expect(statuses(h2)).toEqual({ a: 'approved' });
  });

  it('a server the config trusts (quarantined: false) has its first listing approved as the baseline', async () => {
    const w = await world([tool('a')], { quarantined: false });
    await w.h.until('fx', (srv) => srv.connection.state === 'ready');
    expect(statuses(w.h)).toEqual({ a: 'approved' });
    expect(await w.h.runtime.callTool('fx', 'a', {})).toMatchObject({ content: [{ type: 'text', text: 'a: ok' }] });
  });

  it('rug-pull: an approved tool whose definition changes is changed, until re-approved; changing back restores it', async () => {
    const w = await world([tool('a'), tool('b')], { quarantined: false });
    const first = await w.h.until('fx', (srv) => srv.connection.state === 'ready');
    const approvedHash = first.approvals.get('a')?.approved_hash;

    w.rewrite([tool('a', { inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }), tool('b')]);
    const pulled = await w.h.until('fx', (srv) => srv.approvals.get('a')?.status === 'changed');
    const record = pulled.approvals.get('a')!;
    expect(record.approved_hash).toBe(approvedHash);
    expect(record.current_hash).toBe(pulled.tools.get('a')?.hash);
    expect(record.current_hash).not.toBe(approvedHash);
    expect(gate(w.h, 'a')).toBe('tool_changed');
    expect(gate(w.h, 'b')).toBeUndefined();

    // all-pending does not cover a changed tool: that takes an explicit approval
    await w.h.runtime.approveTools('fx', 'all-pending');
    expect(statuses(w.h).a).toBe('changed');

    w.rewrite([tool('a'), tool('b')]);
    await w.h.until('fx', (srv) => srv.approvals.get('a')?.status === 'approved');

    w.rewrite([tool('a', { description: 'different' }), tool('b')]);
    await w.h.until('fx', (srv) => srv.approvals.get('a')?.status === 'changed');
    await w.h.runtime.approveTools('fx', ['a']);
    const reapproved = w.h.server('fx').approvals.get('a')!;
    expect(reapproved).toMatchObject({ status: 'approved', approved_hash: w.h.server('fx').tools.get('a')?.hash });
    await expect(w.h.runtime.approveTools('fx', ['nope'])).rejects.toMatchObject({ code: 'unknown_tool' });
  });

  it('auto_approve_tool_changes: changed and new tools are approved as they come', async () => {
    const w = await world([tool('a')], { quarantined: false, auto_approve_tool_changes: true });
    await w.h.until('fx', (srv) => srv.connection.state === 'ready');
    w.rewrite([tool('a', { description: 'changed' }), tool('new')]);
    const after = await w.h.until('fx', (srv) => srv.tools.has('new'));
    expect(statuses(w.h)).toEqual({ a: 'approved', new: 'approved' });
    expect(after.approvals.get('a')?.approved_hash).toBe(after.tools.get('a')?.hash);
  });

  it('with tool_quarantine off, new servers are trusted and every tool is approved automatically', async () => {
    const w = await world([tool('a')], {}, { tool_quarantine: false });
    const ready = await w.h.until('fx', (srv) => srv.connection.state === 'ready');
    expect(ready.quarantined).toBe(false);
    expect(w.h.runtime.current().snapshot.tool_quarantine).toBe(false);
    w.rewrite([tool('a', { description: 'changed' }), tool('b')]);
    await w.h.until('fx', (srv) => srv.tools.has('b'));
    expect(statuses(w.h)).toEqual({ a: 'approved', b: 'approved' });
  });

  it('the operator can disable one tool (persisted), and enable it again', async () => {
    const w = await world([tool('a'), tool('b')], { quarantined: false });
    await w.h.until('fx', (srv) => srv.connection.state === 'ready');
    await w.h.runtime.setToolDisabled('fx', 'a', true);
    expect(gate(w.h, 'a')).toBe('tool_blocked_by_user');
    const h2 = await w.restartGateway();
    await h2.until('fx', (srv) => srv.connection.state === 'ready');
    expect(h2.server('fx').approvals.get('a')?.user_disabled).toBe(true);
    await h2.runtime.setToolDisabled('fx', 'a', false);
    expect(gate(h2, 'a')).toBeUndefined();
    await expect(h2.runtime.setToolDisabled('fx', 'ghost', true)).rejects.toMatchObject({ code: 'unknown_tool' });
  });

  it('config allow- and deny-lists reach the snapshot', async () => {
    const w = await world([tool('a'), tool('b'), tool('c')], { quarantined: false, enabled_tools: ['a'], disabled_tools: ['b'] });
    await w.h.until('fx', (srv) => srv.connection.state === 'ready');
    expect([gate(w.h, 'a'), gate(w.h, 'b'), gate(w.h, 'c')]).toEqual([undefined, 'tool_denied_by_config', 'tool_denied_by_config']);
  });

  it('operator actions on unknown servers are errors with codes', async () => {
    const w = await world([tool('a')], { quarantined: false });
    await expect(w.h.runtime.setQuarantined('ghost', false)).rejects.toMatchObject({ code: 'unknown_server' });
    await expect(w.h.runtime.callTool('ghost', 'a', {})).rejects.toMatchObject({ code: 'unknown_server' });
    await w.h.until('fx', (srv) => srv.connection.state === 'ready');
    await expect(w.h.runtime.callTool('fx', 'missing', {})).rejects.toMatchObject({ code: 'unknown_tool' });
  });
});
