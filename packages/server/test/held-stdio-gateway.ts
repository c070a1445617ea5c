// A real `serve --stdio --config FILE` process held open by an SDK client, as a desktop client holds
// it: the reload tests edit its file, send it SIGHUP and read what it logs on stderr.
import { join } from 'node:path';
import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { eventually } from './fixture-process.js';
import { SERVE_MAIN } from './gateway-harness.js';

export interface Held {
  readonly client: Client;
  readonly pid: number;
  readonly socket: string;
  stderr(): string;
  listChanged(): number;
  close(): Promise<void>;
}

/** An SDK client holding `serve --stdio --config FILE` open, with the gateway's stderr and the list_changed it hears. */
export async function holdStdioGateway(configFile: string, dataDir: string): Promise<Held> {
  let stderr = '';
  let changes = 0;
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVE_MAIN, '--stdio', '--config', configFile], stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'reload-test', version: '1.0.0' });
  client.setNotificationHandler('notifications/tools/list_changed', () => void (changes += 1));
  await client.connect(transport);
  return {
    client,
    pid: transport.pid!,
    socket: join(dataDir, 'gateway.sock'),
    stderr: () => stderr,
    listChanged: () => changes,
    close: () => client.close(),
  };
}

/** Waits until the gateway's stderr has `text` after the first `after` characters. */
export const logged = (held: Held, text: string, after = 0) => eventually(() => expect(held.stderr().slice(after)).toContain(text), 30_000, 50);
