// The evaluator's purity rule (root eslint.config.js, the block for packages/evaluator/src):
// every forbidden import and global is reported, and the real source is clean.
// The probes are linted as if they were files under src (lintText with a path under the
// glob) instead of being written there, so a concurrent build or lint never sees them.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: root });
const probePath = `${root}/packages/evaluator/src/purity-probe.ts`;

async function rulesReported(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: probePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? `fatal: ${message.message}`);
}

const forbidden: readonly (readonly [string, string, string])[] = [
  ['node: import', "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;", 'no-restricted-imports'],
  ['bare built-in import', "import { readFileSync } from 'fs';\nexport const read = readFileSync;", 'no-restricted-imports'],
  ['built-in subpath import', "import { readFile } from 'fs/promises';\nexport const read = readFile;", 'no-restricted-imports'],
  ['http import', "import { request } from 'http';\nexport const send = request;", 'no-restricted-imports'],
  ['https import', "import { request } from 'https';\nexport const send = request;", 'no-restricted-imports'],
  ['net import', "import { connect } from 'net';\nexport const open = connect;", 'no-restricted-imports'],
  ['dns import', "import { lookup } from 'node:dns';\nexport const find = lookup;", 'no-restricted-imports'],
  ['child_process import', "import { spawn } from 'child_process';\nexport const start = spawn;", 'no-restricted-imports'],
  ['network client import', "import { fetch } from 'undici';\nexport const get = fetch;", 'no-restricted-imports'],
  ['websocket client import', "import WebSocket from 'ws';\nexport const socket = WebSocket;", 'no-restricted-imports'],
  ['any dependency but @mcpproxy/schema', "import { chunk } from 'lodash';\nexport const split = chunk;", 'no-restricted-imports'],
  ['re-export of a built-in', "export { readFileSync } from 'node:fs';", 'no-restricted-imports'],
  ['dynamic import', "export const load = () => import('./evaluate.js');", 'no-restricted-syntax'],
  ['Date.now', 'export const now = () => Date.now();', 'no-restricted-globals'],
  ['new Date', 'export const today = () => new Date();', 'no-restricted-globals'],
  ['fetch', "export const get = () => fetch('http://127.0.0.1/');", 'no-restricted-globals'],
  ['process', "export const env = () => process.env['HOME'];", 'no-restricted-globals'],
  ['setTimeout', 'export const later = (run: () => void) => setTimeout(run, 1);', 'no-restricted-globals'],
  ['setInterval', 'export const every = (run: () => void) => setInterval(run, 1);', 'no-restricted-globals'],
  ['setImmediate', 'export const soon = (run: () => void) => setImmediate(run);', 'no-restricted-globals'],
  ['queueMicrotask', 'export const soon = (run: () => void) => queueMicrotask(run);', 'no-restricted-globals'],
  ['performance', 'export const now = () => performance.now();', 'no-restricted-globals'],
  ['crypto', 'export const id = () => crypto.randomUUID();', 'no-restricted-globals'],
  ['globalThis', "export const get = () => globalThis.fetch('x');", 'no-restricted-globals'],
  ['require', "export const load = () => require('fs');", 'no-restricted-globals'],
  ['Math.random', 'export const roll = () => Math.random();', 'no-restricted-properties'],
];

describe('the evaluator purity lint rule', () => {
  it.each(forbidden)('reports %s', async (_name, code, rule) => {
    expect(await rulesReported(code)).toContain(rule);
  });

  it('allows @mcpproxy/schema, relative imports and plain computation', async () => {
    const code = [
      "import { REASONS } from '@mcpproxy/schema';",
      "import { parseToolId } from './parse-tool-id.js';",
      'export const codes = Object.keys(REASONS).sort();',
      "export const parsed = parseToolId('a:b');",
      'export const rounded = Math.floor(1.5);',
    ].join('\n');
    expect(await rulesReported(code)).toEqual([]);
  });

  it('finds the real source clean', async () => {
    const results = await eslint.lintFiles([`${root}/packages/evaluator/src`]);
    expect(results.length).toBeGreaterThan(10);
    const messages = results.flatMap((result) => result.messages.map((message) => `${result.filePath}: ${message.ruleId} ${message.message}`));
    expect(messages).toEqual([]);
  });
});
