// The GitHub Actions workflows: valid by the workflow schema (action-validator, a WebAssembly
// build installed from npm), and every command they run is one this repository has.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRoot } from '../src/release-options.js';

const ROOT = defaultRoot();
const WORKFLOWS = join(ROOT, '.github', 'workflows');
const VALIDATOR = join(ROOT, 'tools', 'release', 'node_modules', '@action-validator', 'cli', 'cli.mjs');
const files = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { packageManager: string; scripts: Record<string, string> };
/** pnpm's own commands the workflows may call besides the root scripts. */
const PNPM_BUILTINS = new Set(['install']);

function validate(file: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [VALIDATOR, file], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Each `npx -y pnpm@<version> <command>` a workflow runs (in run: steps and in action inputs). */
function pnpmCommands(text: string): { version: string; command: string }[] {
  return [...text.matchAll(/npx -y pnpm@(\S+) ([a-z][\w:-]*)/g)].map((m) => ({ version: m[1] ?? '', command: m[2] ?? '' }));
}

describe('.github/workflows', () => {
  it('holds the release workflow and a CI workflow', () => {
    expect(files).toEqual(expect.arrayContaining(['release.yml', 'ci.yml']));
  });

  it.each(files.map((f) => [f]))('%s is a valid workflow', (file) => {
    const result = validate(join(WORKFLOWS, file));
    expect(result.status, result.output).toBe(0);
  });

  it('the validator rejects a workflow with a job that says where it runs nowhere', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-workflow-'));
    try {
      const broken = join(dir, 'broken.yml');
      writeFileSync(broken, readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8').replace(/^ {4}runs-on: .*$/m, '    runs-on: 42\n    bogus-key: true'));
      expect(validate(broken).status).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(files.map((f) => [f]))('%s runs only commands this repository has, with its own pnpm version', (file) => {
    const text = readFileSync(join(WORKFLOWS, file), 'utf8');
    const pinned = manifest.packageManager.replace(/^pnpm@/, '');
    for (const { version, command } of pnpmCommands(text)) {
      expect(version, `${file}: pnpm@${version}`).toBe(pinned);
      expect(Object.hasOwn(manifest.scripts, command) || PNPM_BUILTINS.has(command), `${file}: pnpm ${command} is a root script`).toBe(true);
    }
    for (const script of text.matchAll(/bash (\S+)/g)) expect(existsSync(join(ROOT, script[1] ?? '')), `${file}: ${script[1]}`).toBe(true);
  });

  it('the release workflow versions, checks and publishes with the commands the release test runs', () => {
    const commands = pnpmCommands(readFileSync(join(WORKFLOWS, 'release.yml'), 'utf8')).map((c) => c.command);
    expect(commands).toEqual(expect.arrayContaining(['install', 'release:check', 'changeset', 'release']));
    const e2e = readFileSync(join(ROOT, 'tools', 'release', 'test', 'e2e', 'publish-and-install.test.ts'), 'utf8');
    for (const script of ['changeset', 'release', 'release:check']) expect(e2e, script).toContain(`'${script}'`);
  });
});
