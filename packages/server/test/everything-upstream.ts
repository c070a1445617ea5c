// @modelcontextprotocol/server-everything as an upstream: where its bin is, and a config entry that
// runs it over stdio, optionally behind the stdio wiretap (test/stdio-wiretap.mjs).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PACKAGE_DIR } from './gateway-harness.js';
import { readJsonLines } from './json-lines-file.js';

const require = createRequire(import.meta.url);
const manifestPath = require.resolve('@modelcontextprotocol/server-everything/package.json');
const manifest = require(manifestPath) as { bin: Record<string, string> };
export const EVERYTHING_BIN = join(dirname(manifestPath), manifest.bin['mcp-server-everything']!);
const WIRETAP = join(PACKAGE_DIR, 'test', 'stdio-wiretap.mjs');

/** A server entry running server-everything over stdio; with `wiretap`, every line it exchanges is logged there. */
export function everythingServer(name: string, wiretap?: string): Record<string, unknown> {
  const args = wiretap === undefined ? [EVERYTHING_BIN, 'stdio'] : [WIRETAP, wiretap, '--', process.execPath, EVERYTHING_BIN, 'stdio'];
  return { name, command: process.execPath, args, quarantined: false };
}

export interface TappedMessage {
  readonly dir: 'up' | 'down';
  readonly message: { readonly id?: string | number; readonly method?: string; readonly params?: Record<string, unknown> } & Record<string, unknown>;
}

/** What the wiretap has seen so far (up = gateway to upstream). */
export function tapped(file: string): TappedMessage[] {
  return readJsonLines<TappedMessage>(file);
}
