// A gateway replica as a real process (dist/bin/serve.js) on a shared PostgreSQL store: its own data
// directory and upstream connections, the admin key and the store from its configuration, the
// database URL from the environment (url_env), so no secret sits in the file.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { SERVE_MAIN, type TempDir } from './gateway-harness.js';
import { ADMIN_KEY, restClient, type RestClient } from './rest-client.js';

/** The environment variable the replicas' configuration names in store.url_env. */
export const DATABASE_URL_ENV = 'MCPPROXY_REPLICA_DATABASE_URL';

export interface Replica {
  readonly name: string;
  /** http://127.0.0.1:<port> */
  readonly origin: string;
  /** The MCP endpoint. */
  readonly url: string;
  readonly api: RestClient;
  readonly child: ChildProcess;
  /** What it wrote to stderr so far (its log). */
  log(): string;
  /** SIGTERM and wait for the clean exit (SIGKILL after a bound); at once if it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `node dist/bin/serve.js --config <file>` for one replica and waits until it serves. The
 * configuration: listen on a free port, `data_dir` of its own, the shared admin key, the postgres
 * store by url_env, short upstream reconnect delays, and `config` over that.
 */
export async function startReplica(dir: TempDir, name: string, databaseUrl: string, config: Record<string, unknown>): Promise<Replica> {
  const file = dir.file(
    `${name}.config.json`,
    JSON.stringify({
      listen: '127.0.0.1:0',
      data_dir: join(dir.path, `${name}-data`),
      api_key: ADMIN_KEY,
      store: { kind: 'postgres', url_env: DATABASE_URL_ENV },
      reconnect_initial_delay_ms: 50,
      reconnect_max_delay_ms: 500,
      ...config,
    }),
  );
  // The caller's own MCPPROXY_* settings (a developer's shell) must not steer a replica.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MCPPROXY_')));
  const child = spawn(process.execPath, [SERVE_MAIN, '--config', file], { env: { ...inherited, [DATABASE_URL_ENV]: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const look = () => {
      const found = /serving MCP at (\S+)/.exec(stdout)?.[1];
      if (found !== undefined) resolve(found);
    };
    child.stdout.on('data', look);
    void exited.then(() => reject(new Error(`replica ${name} exited before serving (${child.exitCode ?? child.signalCode}):\n${stdout}${stderr}`)));
  });
  const origin = new URL(url).origin;
  return {
    name,
    origin,
    url,
    api: restClient(origin),
    child,
    log: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const bound = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(bound);
    },
  };
}
