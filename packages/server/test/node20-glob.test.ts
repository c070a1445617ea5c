// The stand-in for fs.globSync that lets the conformance suite load on Node 20 (test/node20-glob/).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without types, loaded here exactly as the suite loads it
import { globSync, readFileSync as shimReadFileSync } from './node20-glob/fs-with-glob-sync.mjs';
import { PACKAGE_DIR, TempDir } from './gateway-harness.js';

const REGISTER = join(PACKAGE_DIR, 'test', 'node20-glob', 'register-glob-sync.mjs');
const CONFORMANCE = join(PACKAGE_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

describe('the Node 20 globSync stand-in', () => {
  const dir = new TempDir();
  afterAll(() => dir.remove());

  it('finds a file name at any depth, relative to cwd, and nothing else', () => {
    for (const sub of ['a/b', 'c']) mkdirSync(join(dir.path, sub), { recursive: true });
    for (const file of ['checks.json', 'a/b/checks.json', 'a/other.json', 'c/checks.json.bak']) writeFileSync(join(dir.path, file), '[]');
    expect((globSync('**/checks.json', { cwd: dir.path }) as string[]).sort()).toEqual(['a/b/checks.json', 'checks.json']);
  });

  it('refuses any other pattern by name instead of finding nothing', () => {
    expect(() => globSync('*.json', { cwd: dir.path })).toThrow('only "**/<file name>" is supported, not "*.json"');
    expect(() => globSync('**/*.json', { cwd: dir.path })).toThrow('not "**/*.json"');
  });

  it('is node:fs otherwise', () => {
    expect(shimReadFileSync).toBeTypeOf('function');
  });

  it('lets the conformance suite load on this Node', () => {
    const run = spawnSync(process.execPath, ['--import', REGISTER, CONFORMANCE, '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('MCP Conformance Test Suite');
    expect(run.status).toBe(0);
  });
});
