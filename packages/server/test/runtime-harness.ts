// Starting the real runtime (real store in a temp dir, real fixture processes) for tests.
import type { GatewayConfig } from '@mcpproxy/schema';
import { validateAndResolve } from '../src/config/gateway-config.js';
import type { ResolvedConfig } from '../src/config/gateway-config.js';
import { startRuntime } from '../src/state/gateway-runtime.js';
import type { GatewayRuntime, RuntimeServerSnapshot } from '../src/state/gateway-runtime.js';
import { openStore } from '../src/store/store.js';
import type { Store } from '../src/store/store.js';
import type { Scratch} from './fixture-process.js';
import { FIXTURE_MAIN, eventually } from './fixture-process.js';

export interface Harness {
  readonly runtime: GatewayRuntime;
  readonly store: Store;
  readonly config: ResolvedConfig;
  server(name: string): RuntimeServerSnapshot;
  /** Waits until the server's published snapshot passes the check. */
  until(name: string, check: (server: RuntimeServerSnapshot) => boolean, timeoutMs?: number): Promise<RuntimeServerSnapshot>;
  stop(): Promise<void>;
}

/** A stdio server entry that runs the built fixture with these arguments. */
export function fixtureServer(name: string, args: readonly string[], extra: Record<string, unknown> = {}) {
  return { name, command: process.execPath, args: [FIXTURE_MAIN, ...args], ...extra };
}

export async function startHarness(
  scratch: Scratch,
  config: Partial<GatewayConfig> & Pick<GatewayConfig, 'servers'>,
  /** Wraps the real store (a test that needs a write to fail injects it here). */
  wrapStore: (store: Store) => Store = (store) => store,
): Promise<Harness> {
  const loaded = validateAndResolve(
    {
      data_dir: scratch.file('data'),
      api_key: 'test-api-key-0123456789',
      reconnect_initial_delay_ms: 100,
      reconnect_max_delay_ms: 400,
      // A fixture is a Node process: on a loaded 2-core CI machine its start alone can pass 5 s.
      upstream_timeout_ms: 30_000,
      ...config,
    },
    scratch.file('config.json'),
  );
  if (!loaded.ok) throw new Error(loaded.error.message);
  const opened = openStore(loaded.config.data_dir);
  if (!opened.ok) throw new Error(opened.error.message);
  const store = wrapStore(opened.store);
  const runtime = await startRuntime(loaded.config, store, { random: () => 0.5 });
  const server = (name: string): RuntimeServerSnapshot => {
    const found = runtime.current().snapshot.servers.get(name);
    if (found === undefined) throw new Error(`no server ${name}`);
    return found;
  };
  return {
    runtime,
    store,
    config: loaded.config,
    server,
    until: (name, check, timeoutMs = 45_000) =>
      eventually(() => {
        const snapshot = server(name);
        if (!check(snapshot)) {
          throw new Error(`server ${name} never matched; last: ${JSON.stringify({ ...snapshot, tools: [...snapshot.tools.keys()], approvals: [...snapshot.approvals.values()] })}`);
        }
        return snapshot;
      }, timeoutMs),
    async stop() {
      await runtime.close();
      store.close();
    },
  };
}
