// A fresh project outside the workspace that installs our packages the way a user does:
// `npm install <pkg>` from the local registry only, with its own npm cache so nothing cached
// from another registry (or an earlier run) is used.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { runBounded, type BoundedResult } from './bounded-command.js';

// npm builds better-sqlite3 from source here (no prebuilt binary offline): minutes on a loaded machine.
const INSTALL_TIMEOUT_MS = 360_000;
const SCRIPT_TIMEOUT_MS = 60_000;

export interface ConsumerProject {
  readonly dir: string;
  install(...specs: string[]): Promise<BoundedResult>;
  /** Copies a consumer script into the project and runs it with node; parses the JSON it prints. */
  runScript(script: string, args?: readonly string[]): Promise<Record<string, unknown>>;
  installedVersion(name: string): string;
}

/** This process's environment without npm/pnpm settings a parent `pnpm test` may have exported. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_|NODE_OPTIONS$|NODE_PATH$|VITEST|TEST$|NODE_ENV$)/i.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

export function createConsumerProject(dir: string, registry: string, npmCache: string): ConsumerProject {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(join(dir, '.npmrc'), `registry=${registry}/\naudit=false\nfund=false\nupdate-notifier=false\n`);
  // The user's npm config stays (on these machines it names the Node headers that native addons
  // build against); the registry and the cache are the test's own.
  const env = cleanEnv({ npm_config_cache: npmCache, npm_config_registry: `${registry}/` });
  return {
    dir,
    install: (...specs) =>
      runBounded('npm', ['install', '--save-exact', '--registry', `${registry}/`, ...specs], { cwd: dir, env, timeoutMs: INSTALL_TIMEOUT_MS }),
    runScript: async (script, args = []) => {
      const target = join(dir, basename(script));
      cpSync(script, target);
      const result = await runBounded(process.execPath, [target, ...args], { cwd: dir, env, timeoutMs: SCRIPT_TIMEOUT_MS });
      if (result.status !== 0) throw new Error(`${basename(script)} exited ${result.status}:\n${result.stdout}${result.stderr}`);
      return JSON.parse(result.stdout) as Record<string, unknown>;
    },
    installedVersion: (name) => (JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version,
  };
}
