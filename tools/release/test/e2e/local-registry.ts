// A real npm registry for the test: verdaccio 6.8.0 with its config and storage in a temp dir,
// no uplinks (nothing is proxied to the public registry: a package we did not publish is a
// 404), anonymous access and publish, bound to 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER_SCRIPT = fileURLToPath(new URL('./local-registry-server.mjs', import.meta.url));

export interface LocalRegistry {
  readonly url: string;
  readonly pid: number;
  /** Registry log lines so far (warnings and errors only). */
  log(): string;
  stop(): Promise<void>;
}

export function registryConfig(storage: string): string {
  // JSON is YAML, and keeps this free of a YAML writer.
  const config = {
    storage,
    auth: { htpasswd: { file: join(storage, '..', 'htpasswd'), max_users: -1 } },
    uplinks: {},
    packages: { '**': { access: '$all', publish: '$all', unpublish: '$all' } },
    web: { enable: false },
    max_body_size: '100mb',
    log: { type: 'stdout', format: 'pretty', level: 'warn' },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

function waitForPort(child: ChildProcess, timeoutMs: number, output: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`verdaccio did not start within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    child.stdout?.on('data', () => {
      const match = /listening (\d+)/.exec(output());
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`verdaccio exited early (${code ?? signal}):\n${output()}`));
    });
  });
}

export async function startLocalRegistry(dir: string): Promise<LocalRegistry> {
  const storage = join(dir, 'storage');
  mkdirSync(storage, { recursive: true });
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, registryConfig(storage));
  const child = spawn(process.execPath, [SERVER_SCRIPT, configFile], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let port: number;
  try {
    port = await waitForPort(child, 30_000, () => text);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? -1,
    log: () => text,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}
