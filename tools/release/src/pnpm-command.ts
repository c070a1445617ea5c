// pnpm is not installed globally on these machines: every pnpm call goes through npx with the
// exact version the root package.json pins in "packageManager", so the release uses the same
// pnpm as installs do (its pack and publish turn workspace: ranges into real ones).
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readManifest } from './workspace-packages.js';

export interface CommandResult {
  readonly status: number;
  /** Empty when the output went to the terminal. */
  readonly stdout: string;
  readonly stderr: string;
}

export interface CommandOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Stream the output to this process's terminal instead of capturing it. */
  readonly echo?: boolean;
}

export function pnpmSpec(root: string): string {
  const manager = readManifest(join(root, 'package.json'))['packageManager'];
  if (typeof manager !== 'string' || !manager.startsWith('pnpm@')) {
    throw new Error(`${join(root, 'package.json')} must pin pnpm in "packageManager" (pnpm@<version>)`);
  }
  return manager.replace(/\+.*$/, '');
}

export function runCommand(command: string, args: readonly string[], options: CommandOptions): CommandResult {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: options.echo === true ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
  });
  if (result.error !== undefined) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

export function runPnpm(root: string, args: readonly string[], options: CommandOptions): CommandResult {
  return runCommand('npx', ['-y', pnpmSpec(root), ...args], options);
}

/** The same, without blocking: the per-package checks run two at a time on these 2-core machines. */
export function captureCommand(command: string, args: readonly string[], options: Omit<CommandOptions, 'echo'>): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ status: code ?? 1, stdout, stderr }));
  });
}

export function capturePnpm(root: string, args: readonly string[], options: Omit<CommandOptions, 'echo'>): Promise<CommandResult> {
  return captureCommand('npx', ['-y', pnpmSpec(root), ...args], options);
}
