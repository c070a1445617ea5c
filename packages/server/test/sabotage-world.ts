// The world the sabotage matrix runs in: real fixture upstreams (stdio children of the gateway and
// separate HTTP processes), a real in-process gateway, and every row's state induced the way an
// operator or a failing upstream would (REST actions, a rewritten tools file + SIGHUP, SIGKILL, a
// delayed restart, a 401, an overload switch + SIGHUP and one tools/call to meet it). Reused by the CLI's tests: they get URLs and credentials from here.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApprovalRecord } from '@mcpproxy/evaluator';
import type { RuntimeServerSnapshot } from '../src/state/gateway-runtime.js';
import { RuntimeError } from '../src/state/runtime-error.js';
import { eventually, startHttpFixture, type HttpFixture } from './fixture-process.js';
import { FIXTURE_MAIN, startTestGateway, TempDir, waitForState, type FixtureToolSpec, type TestGateway } from './gateway-harness.js';

export const WORLD_ADMIN_KEY = 'sabotage-admin-key-0123456789';

export interface WorldServerSpec {
  readonly transport: 'stdio' | 'http';
  /** The connection state to wait for before anything is induced. */
  readonly initially: 'ready' | 'connecting' | 'pending_auth' | 'error';
  readonly tools?: readonly FixtureToolSpec[];
  /** Extra server config (enabled_tools, disabled_tools, ...). */
  readonly config?: Record<string, unknown>;
  /** stdio: the fixture answers nothing for this long after every start. */
  readonly start_delay_ms?: number;
  /** stdio: the start delay is read from a file at every start (so a later restart can be delayed). */
  readonly delay_file?: boolean;
  /** stdio: a process that exits at once (never ready). */
  readonly exits_at_start?: boolean;
  /** http: 401 unless Authorization: Bearer <token>. */
  readonly require_token?: string;
}

export interface WorldSpec {
  readonly reconnect_delay_ms: number;
  readonly upstream_timeout_ms: number;
  /** Agent tokens by name: their allowed servers. */
  readonly tokens: Readonly<Record<string, readonly string[]>>;
  readonly profiles: Readonly<Record<string, readonly string[]>>;
  readonly servers: Readonly<Record<string, WorldServerSpec>>;
}

export type InduceStep =
  | { readonly rest: string; readonly body?: unknown }
  | { readonly rug_pull: string; readonly tools: readonly FixtureToolSpec[] }
  | { readonly kill: string }
  | { readonly delay_next_start: string; readonly ms: number }
  | { readonly require_login: string; readonly token: string }
  /** The fixture's overload switch (fixture-overload.ts), then tools/calls of `call` until the gateway holds the server saturated. */
  | { readonly overload: string; readonly answer: Readonly<Record<string, unknown>>; readonly call: string };

/** A condition on one server's published state; every given key must hold. */
export interface UntilCondition {
  readonly server: string;
  readonly state?: readonly string[];
  readonly ever_ready?: boolean;
  readonly quarantined?: boolean;
  readonly enabled?: boolean;
  readonly tool?: string;
  /** The upstream's current listing has the tool (or, false, no longer has it). */
  readonly listed?: boolean;
  readonly approval?: ApprovalRecord['status'];
  readonly user_disabled?: boolean;
  readonly saturated?: boolean;
}

export interface SabotageWorld {
  readonly gateway: TestGateway;
  /** http://127.0.0.1:<port> (REST under /api/v1). */
  readonly origin: string;
  /** <origin>/mcp */
  readonly mcpUrl: string;
  readonly adminKey: string;
  /** Agent token secrets by the names in the spec. */
  readonly tokens: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

interface Upstream {
  readonly name: string;
  readonly spec: WorldServerSpec;
  readonly toolsFile: string;
  readonly pidFile: string;
  readonly delayFile: string;
  readonly overloadFile: string;
  http?: HttpFixture;
}

/**
 * Starts the world, applies the steps in order (each distinct step once) and resolves when every
 * condition holds. Throws with the state it saw when something never gets there.
 */
export async function startSabotageWorld(spec: WorldSpec, steps: readonly InduceStep[], conditions: readonly UntilCondition[]): Promise<SabotageWorld> {
  const dir = new TempDir();
  const upstreams = new Map<string, Upstream>();
  let gateway: TestGateway | undefined;
  const close = async () => {
    await gateway?.close();
    await Promise.all([...upstreams.values()].map((u) => u.http?.stop()));
    dir.remove();
  };
  try {
    for (const [name, server] of Object.entries(spec.servers)) {
      const upstream: Upstream = { name, spec: server, toolsFile: dir.tools(name, server.tools ?? []), pidFile: join(dir.path, `${name}.pid`), delayFile: dir.file(`${name}.delay`, '0'), overloadFile: dir.file(`${name}.overload.json`, '{}') };
      if (server.transport === 'http') upstream.http = await startHttpFixture(httpArgs(upstream, server.require_token));
      upstreams.set(name, upstream);
    }
    const tokens = Object.fromEntries(Object.keys(spec.tokens).map((name) => [name, `sabotage-token-${name}-0123456789`]));
    gateway = await startTestGateway(dir, {
      api_key: WORLD_ADMIN_KEY,
      reconnect_initial_delay_ms: spec.reconnect_delay_ms,
      reconnect_max_delay_ms: spec.reconnect_delay_ms,
      upstream_timeout_ms: spec.upstream_timeout_ms,
      servers: [...upstreams.values()].map(serverConfig),
      agent_tokens: Object.entries(spec.tokens).map(([name, allowed]) => ({ name, token: tokens[name], allowed_servers: allowed })),
      profiles: Object.entries(spec.profiles).map(([name, servers]) => ({ name, servers })),
    });
    const running = gateway;
    const origin = running.gateway.origin ?? '';
    await waitForConditions(
      running,
      [...upstreams.values()].map((u) => ({ server: u.name, state: [u.spec.initially] })),
    );
    const seen = new Set<string>();
    for (const step of steps) {
      const key = JSON.stringify(step);
      if (seen.has(key)) continue;
      seen.add(key);
      await induce(step, upstreams, origin, running);
    }
    await waitForConditions(running, conditions);
    return { gateway: running, origin, mcpUrl: running.url, adminKey: WORLD_ADMIN_KEY, tokens, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function httpArgs(upstream: Upstream, token: string | undefined, port?: number): string[] {
  // startHttpFixture passes --http 0; a later --http wins (the same port again after a restart).
  return [
    ...(port === undefined ? [] : ['--http', String(port)]),
    ...['--tools', upstream.toolsFile, '--name', upstream.name, '--overload', upstream.overloadFile],
    ...(token === undefined ? [] : ['--require-token', token]),
  ];
}

function serverConfig(upstream: Upstream): Record<string, unknown> {
  const { name, spec } = upstream;
  const base = { name, quarantined: false, ...spec.config };
  if (spec.transport === 'http') return { ...base, url: upstream.http?.url };
  if (spec.exits_at_start === true) return { ...base, command: process.execPath, args: ['-e', 'process.exit(3)'] };
  const fixture = [FIXTURE_MAIN, '--tools', upstream.toolsFile, '--name', name, '--pid-file', upstream.pidFile, '--overload', upstream.overloadFile];
  if (spec.delay_file === true) {
    // The delay is read at every start, so a later restart can be made to hang while the first start did not.
    const script = 'exec "$0" "$@" --start-delay-ms "$(cat "$DELAY_FILE")"';
    return { ...base, command: 'sh', args: ['-c', script, process.execPath, ...fixture], env: { DELAY_FILE: upstream.delayFile } };
  }
  return { ...base, command: process.execPath, args: [...fixture, ...(spec.start_delay_ms === undefined ? [] : ['--start-delay-ms', String(spec.start_delay_ms)])] };
}

async function induce(step: InduceStep, upstreams: ReadonlyMap<string, Upstream>, origin: string, gateway: TestGateway): Promise<void> {
  const upstream = (name: string) => {
    const found = upstreams.get(name);
    if (found === undefined) throw new Error(`induce: no server ${name} in the world`);
    return found;
  };
  if ('rest' in step) {
    const [method = 'POST', path = ''] = step.rest.split(' ');
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { 'x-api-key': WORLD_ADMIN_KEY, ...(step.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(step.body === undefined ? {} : { body: JSON.stringify(step.body) }),
    });
    if (!response.ok) throw new Error(`induce: ${step.rest} answered ${response.status}: ${await response.text()}`);
    return;
  }
  if ('rug_pull' in step) {
    const target = upstream(step.rug_pull);
    writeFileSync(target.toolsFile, JSON.stringify(step.tools));
    process.kill(pidOf(target), 'SIGHUP');
    return;
  }
  if ('kill' in step) {
    process.kill(pidOf(upstream(step.kill)), 'SIGKILL');
    return;
  }
  if ('overload' in step) {
    await overload(upstream(step.overload), step.answer, step.call, gateway);
    return;
  }
  if ('delay_next_start' in step) {
    writeFileSync(upstream(step.delay_next_start).delayFile, String(step.ms));
    return;
  }
  const target = upstream(step.require_login);
  const http = target.http;
  if (http === undefined) throw new Error(`induce: ${target.name} is not an HTTP upstream`);
  const port = Number(new URL(http.url).port);
  await http.stop();
  target.http = await startHttpFixture(httpArgs(target, step.token, port));
}

function pidOf(upstream: Upstream): number {
  return upstream.http?.process.pid ?? Number(readFileSync(upstream.pidFile, 'utf8').trim());
}

/**
 * Switches the fixture to answering tools/call as `answer` says, then calls through the gateway's
 * runtime (what a tools/call on /mcp does) until the gateway has met the overload: the fixture
 * reads the switch on SIGHUP, asynchronously.
 */
async function overload(target: Upstream, answer: Readonly<Record<string, unknown>>, tool: string, gateway: TestGateway): Promise<void> {
  writeFileSync(target.overloadFile, JSON.stringify(answer));
  process.kill(pidOf(target), 'SIGHUP');
  const runtime = gateway.gateway.runtime;
  await eventually(async () => {
    const error: unknown = await runtime.callTool(target.name, tool, {}).then(
      () => undefined,
      (cause: unknown) => cause,
    );
    if (!(error instanceof RuntimeError && error.code === 'server_saturated')) throw new Error(`${target.name}:${tool} is not saturated yet (${String(error)})`);
  }, 30_000);
}

async function waitForConditions(gateway: TestGateway, conditions: readonly UntilCondition[]): Promise<void> {
  try {
    await waitForState(gateway.gateway, (state) => conditions.every((c) => holds(state.snapshot.servers.get(c.server), c)), 30_000);
  } catch {
    const servers = gateway.gateway.runtime.current().snapshot.servers;
    const failing = conditions.filter((c) => !holds(servers.get(c.server), c));
    const seen = failing.map((c) => {
      const s = servers.get(c.server);
      return `${JSON.stringify(c)} saw ${JSON.stringify(s === undefined ? null : { state: s.connection.state, ever_ready: s.connection.ever_ready, quarantined: s.quarantined, enabled: s.enabled, last_error: s.connection.last_error, approvals: Object.fromEntries(s.approvals) })}`;
    });
    throw new Error(`the world never reached:\n${seen.join('\n')}`);
  }
}

function holds(server: RuntimeServerSnapshot | undefined, c: UntilCondition): boolean {
  if (server === undefined) return false;
  if (c.state !== undefined && !c.state.includes(server.connection.state ?? 'connecting')) return false;
  if (c.ever_ready !== undefined && server.connection.ever_ready !== c.ever_ready) return false;
  if (c.quarantined !== undefined && server.quarantined !== c.quarantined) return false;
  if (c.enabled !== undefined && server.enabled !== c.enabled) return false;
  if (c.saturated !== undefined && (server.connection.saturation !== undefined) !== c.saturated) return false;
  if (c.tool !== undefined) {
    if (c.listed !== undefined && server.tools.has(c.tool) !== c.listed) return false;
    const approval = server.approvals.get(c.tool);
    if (c.approval !== undefined && approval?.status !== c.approval) return false;
    if (c.user_disabled !== undefined && approval?.user_disabled !== c.user_disabled) return false;
  }
  return true;
}
