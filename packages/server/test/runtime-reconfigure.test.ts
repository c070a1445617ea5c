// A reload's servers applied to the live runtime (real fixtures, real store): added servers connect,
// removed ones stop and leave the snapshot, a server whose command changed reconnects and keeps its
// approvals, a server whose gates changed keeps its connection, and every other server is not touched
// at all (same snapshot object, same upstream process). The result is what a restart on the new file
// gives; a store that fails leaves everything as it was.
import { classifyTool } from '@mcpproxy/evaluator';
import { describe, expect, it } from 'vitest';
import { validateAndResolve, type ResolvedConfig } from '../src/config/gateway-config.js';
import type { Store } from '../src/store/store.js';
import { cleanupAfterEach } from './cleanup-after-each.js';
import { eventually, processRunning, tool, type Scratch } from './fixture-process.js';
import { fixtureServer, startHarness, type Harness } from './runtime-harness.js';

const cleanups = cleanupAfterEach();

function pidOf(s: Scratch, name: string): number {
  return s.readCount(`${name}.pid`);
}


/** The harness's config with these servers and profiles, resolved as a reload resolves it. */
function nextConfig(h: Harness, servers: readonly Record<string, unknown>[], extra: Record<string, unknown> = {}): ResolvedConfig {
  const { source: _source, api_key_generated: _generated, servers: _servers, ...settings } = h.config;
  const loaded = validateAndResolve({ ...settings, servers, ...extra }, h.config.source);
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.config;
}

/** What a restart would rebuild per server: flags and approvals. */
function durableState(h: Harness): Record<string, unknown> {
  return Object.fromEntries(
    [...h.runtime.current().snapshot.servers.values()].map((server) => [
      server.name,
      { enabled: server.enabled, quarantined: server.quarantined, approvals: [...server.approvals.values()].sort((a, b) => (a.tool < b.tool ? -1 : 1)) },
    ]),
  );
}

const ready = (h: Harness, name: string) => h.until(name, (server) => server.connection.state === 'ready');

describe('runtime.reconfigure', () => {
  it('adds, removes, reconnects and updates servers, and touches no other', async () => {
    const s = cleanups.scratch();
    const keepTools = s.writeTools('keep.json', [tool('k1'), tool('k2')]);
    const chgA = s.writeTools('chg-a.json', [tool('c1')]);
    const chgB = s.writeTools('chg-b.json', [tool('c1'), tool('c2')]);
    const gatedTools = s.writeTools('gated.json', [tool('g1'), tool('g2')]);
    const server = (name: string, args: readonly string[], extra: Record<string, unknown> = { quarantined: false }) => fixtureServer(name, [...args, '--pid-file', s.file(`${name}.pid`)], extra);
    const servers = {
      keep: server('keep', ['--tools', keepTools]),
      held: server('held', ['--demo'], {}),
      gated: server('gated', ['--tools', gatedTools]),
      chg: server('chg', ['--tools', chgA]),
      gone: server('gone', ['--demo']),
    };
    const h = await startHarness(s, { servers: Object.values(servers) });
    cleanups.defer(() => h.stop());
    for (const name of Object.keys(servers)) await ready(h, name);
    // Operator state on the kept servers: a tool disabled by hand, a tool pending after the baseline, a server held in quarantine.
    await h.runtime.setToolDisabled('keep', 'k2', true);
    s.writeTools('keep.json', [tool('k1'), tool('k2'), tool('k3')]);
    process.kill(pidOf(s, 'keep'), 'SIGHUP');
    await h.until('keep', (snapshot) => snapshot.approvals.get('k3')?.status === 'pending');
    expect(h.server('held').quarantined).toBe(true);
    const before = { keep: h.server('keep'), held: h.server('held') };
    const pids = { keep: pidOf(s, 'keep'), held: pidOf(s, 'held'), gated: pidOf(s, 'gated'), chg: pidOf(s, 'chg'), gone: pidOf(s, 'gone') };

    const next = nextConfig(h, [
      servers.keep,
      servers.held,
      { ...servers.gated, disabled_tools: ['g2'] },
      server('chg', ['--tools', chgB]),
      server('new', ['--demo'], {}),
    ]);
    const changes = await h.runtime.reconfigure({ servers: next.servers, profiles: [{ name: 'team', servers: ['keep', 'new'] }] });
    expect({
      added: changes.added.map((c) => c.name),
      removed: changes.removed,
      reconnected: changes.reconnected.map((c) => c.name),
      updated: changes.updated.map((c) => c.name),
    }).toEqual({ added: ['new'], removed: ['gone'], reconnected: ['chg'], updated: ['gated'] });

    // Untouched: the very same published server objects, the same upstream processes.
    expect(h.server('keep')).toBe(before.keep);
    expect(h.server('held')).toBe(before.held);
    expect([pidOf(s, 'keep'), pidOf(s, 'held'), pidOf(s, 'gated')]).toEqual([pids.keep, pids.held, pids.gated]);
    expect([processRunning(pids.keep), processRunning(pids.held), processRunning(pids.gated)]).toEqual([true, true, true]);

    const snapshot = () => h.runtime.current().snapshot;
    expect(snapshot().servers.has('gone')).toBe(false);
    await eventually(() => expect(processRunning(pids.gone)).toBe(false));
    expect(classifyTool(h.server('gated'), 'g2', true)).toBe('tool_denied_by_config');
    expect(h.server('gated').connection.state).toBe('ready');
    expect([...snapshot().profiles.get('team')!]).toEqual(['keep', 'new']);

    // The changed server runs its new command and keeps its approvals: c1 as approved, c2 new and pending.
    await h.until('chg', (server) => server.connection.state === 'ready' && server.tools.has('c2'));
    expect(pidOf(s, 'chg')).not.toBe(pids.chg);
    expect(processRunning(pids.chg)).toBe(false);
    expect(h.server('chg').approvals.get('c1')?.status).toBe('approved');
    expect(h.server('chg').approvals.get('c2')?.status).toBe('pending');
    // The added server is new to the store: quarantined, and remembered so.
    expect(h.server('new').quarantined).toBe(true);
    expect((await h.store.listServerOverrides()).get('new')).toEqual({ quarantined: true });
    await ready(h, 'new');

    // A restart on the new file ends in the same state.
    const reloaded = durableState(h);
    await h.stop();
    const restarted = await startHarness(s, { servers: next.servers.map((config) => ({ ...config })) });
    cleanups.defer(() => restarted.stop());
    for (const name of ['keep', 'held', 'gated', 'chg', 'new']) await ready(restarted, name);
    expect(durableState(restarted)).toEqual(reloaded);
  });

  it('applies a change of enabled or quarantined from the file as a start would: a run-time override still wins', async () => {
    const s = cleanups.scratch();
    const h = await startHarness(s, { servers: [fixtureServer('a', ['--demo'], { quarantined: false }), fixtureServer('b', ['--demo'], { quarantined: false })] });
    cleanups.defer(() => h.stop());
    await ready(h, 'a');
    await ready(h, 'b');
    await h.runtime.setQuarantined('b', false);
    const next = nextConfig(h, [fixtureServer('a', ['--demo'], { quarantined: false, enabled: false }), fixtureServer('b', ['--demo'], { quarantined: true })]);
    const changes = await h.runtime.reconfigure({ servers: next.servers, profiles: [] });
    expect(changes.updated.map((c) => c.name)).toEqual(['a', 'b']);
    expect(h.server('a').enabled).toBe(false);
    expect(h.server('a').connection.state).toBe('disconnected');
    // b's override (unquarantined by the operator) is stored: the file's quarantined: true does not undo it.
    expect(h.server('b').quarantined).toBe(false);
  });

  it('changes nothing when the store cannot be read', async () => {
    const s = cleanups.scratch();
    let failing = false;
    const h = await startHarness(s, { servers: [fixtureServer('a', ['--demo'], { quarantined: false })] }, (store) =>
      new Proxy(store, {
        get(target, key, receiver) {
          if (key === 'listServerOverrides' && failing) return () => Promise.reject(new Error('the disk went away'));
          const value = Reflect.get(target, key, receiver) as unknown;
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      }) as Store,
    );
    cleanups.defer(() => h.stop());
    await ready(h, 'a');
    const version = h.runtime.current().snapshot.version;
    failing = true;
    await expect(h.runtime.reconfigure({ servers: [], profiles: [] })).rejects.toThrow('the disk went away');
    expect(h.runtime.current().snapshot.version).toBe(version);
    expect(h.server('a').connection.state).toBe('ready');
  });
});
