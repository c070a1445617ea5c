// Packs one package with pnpm, exactly as `pnpm publish` would, into a directory of the caller's.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { capturePnpm } from './pnpm-command.js';
import type { WorkspacePackage } from './workspace-packages.js';

export type PackOutcome = { readonly ok: true; readonly tarball: string } | { readonly ok: false; readonly message: string };

export async function packPackage(root: string, pkg: WorkspacePackage, outDir: string): Promise<PackOutcome> {
  const destination = mkdtempSync(join(outDir, 'pack-'));
  const result = await capturePnpm(root, ['pack', '--pack-destination', destination, '--json'], { cwd: pkg.dir });
  if (result.status !== 0) return { ok: false, message: `pnpm pack exited ${result.status}: ${(result.stderr || result.stdout).trim()}` };
  const start = result.stdout.indexOf('{');
  try {
    const report = JSON.parse(result.stdout.slice(start)) as { filename?: unknown };
    if (typeof report.filename === 'string') return { ok: true, tarball: report.filename };
  } catch {
    // Reported below with the output that could not be read.
  }
  return { ok: false, message: `pnpm pack printed no tarball name: ${result.stdout.trim()}` };
}
