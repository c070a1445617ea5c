// Builds the released packages through nx, so codegen's check and the dependency order come
// from the same targets CI runs (and a clean tree is a cache hit). nx runs package scripts with
// pnpm, which is only on PATH inside `pnpm exec`.
import { runPnpm } from './pnpm-command.js';
import type { WorkspacePackage } from './workspace-packages.js';

export function buildPackages(root: string, packages: readonly WorkspacePackage[]): boolean {
  const projects = packages.map((p) => p.name).join(',');
  const args = ['exec', 'nx', 'run-many', '-t', 'build', `--projects=${projects}`, '--outputStyle=static'];
  return runPnpm(root, args, { cwd: root, echo: true }).status === 0;
}
