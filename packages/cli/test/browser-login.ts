// `mcpproxy auth login ... --no-browser` (the built CLI, a child process) with the test's "browser"
// doing the person's part: it follows the authorization URL the command prints through the
// authorization server (consent automated) and lands on the command's loopback callback.
import { spawn } from 'node:child_process';
import { followAuthorization, type BrowserVisit } from '../../server/test/oauth-world/headless-browser.js';
import { CLI_BIN, type CliRun } from './cli-harness.js';

export interface BrowserLogin {
  readonly run: CliRun;
  readonly browser: BrowserVisit;
}

export async function loginWithBrowser(args: readonly string[], options: { readonly env: Record<string, string>; readonly callbackPort: number; readonly cwd?: string }): Promise<BrowserLogin> {
  const child = spawn(process.execPath, [CLI_BIN, ...args, '--no-browser'], { env: options.env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)$/m.exec(stdout);
      if (match !== null) resolve(match[1]!);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void exited.then((code) => reject(new Error(`auth login exited ${code} before printing a URL:\n${stdout}\n${stderr}`)));
  });
  const browser = await followAuthorization(url, { visitCallback: true, redirectPrefix: `http://127.0.0.1:${options.callbackPort}/oauth/callback` });
  const code = await exited;
  return { run: { code, stdout, stderr }, browser };
}
