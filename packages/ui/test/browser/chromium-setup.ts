// Vitest global setup: finds the Chromium the browser tests drive, once per run, before any test
// file starts. MCPPROXY_CHROMIUM names a system Chromium (e.g. /usr/bin/chromium); without it the one
// bundled in @sparticuz/chromium (143.0.4, whose engines include Node 20) is extracted, once per
// machine, into node_modules/.cache: into a fresh folder first, then renamed into place, so a run that
// was killed half-way never leaves a broken binary behind. Nothing is downloaded: npm install brought it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumPath: string;
  }
}

export const CHROMIUM_ENV = 'MCPPROXY_CHROMIUM';

export default async function setup(project: TestProject): Promise<void> {
  project.provide('chromiumPath', await chromiumPath());
}

async function chromiumPath(): Promise<string> {
  const configured = process.env[CHROMIUM_ENV];
  if (configured !== undefined && configured !== '') {
    if (!existsSync(configured)) throw new Error(`${CHROMIUM_ENV}=${configured}: no such file`);
    return configured;
  }
  // <node_modules>/@sparticuz/chromium/build/cjs/index.cjs: the package does not export its package.json.
  const packageDir = join(createRequire(import.meta.url).resolve('@sparticuz/chromium'), '..', '..', '..');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const cache = join(packageDir, '..', '..', '.cache', `sparticuz-chromium-${version}`);
  const binary = join(cache, 'chromium');
  if (existsSync(binary)) return binary;
  mkdirSync(join(cache, '..'), { recursive: true });
  const staging = mkdtempSync(`${cache}.staging-`);
  // The package extracts into os.tmpdir(): point that at the staging folder for this one call.
  const tmpdirBefore = process.env['TMPDIR'];
  process.env['TMPDIR'] = staging;
  try {
    const { default: chromium } = await import('@sparticuz/chromium');
    await chromium.executablePath();
  } finally {
    if (tmpdirBefore === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = tmpdirBefore;
  }
  try {
    renameSync(staging, cache);
  } catch (error) {
    // Another run put its own there first: use that one.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw error;
  }
  return binary;
}
