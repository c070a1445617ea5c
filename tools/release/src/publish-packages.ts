// Publishes with `pnpm publish -r`, limited to the packages the checks covered. pnpm skips a
// version the registry already has, replaces workspace: ranges with real ones, and publishes
// dependencies before their dependents.
import { runPnpm } from './pnpm-command.js';
import type { WorkspacePackage } from './workspace-packages.js';

export interface PublishOptions {
  readonly dryRun: boolean;
  /** Another registry than the configured one (the end-to-end test's verdaccio). */
  readonly registry?: string;
  /** pnpm refuses to publish from a dirty tree or another branch than main unless told. */
  readonly gitChecks: boolean;
}

export function publishArgs(packages: readonly WorkspacePackage[], options: PublishOptions): string[] {
  return [
    'publish',
    '-r',
    ...packages.flatMap((p) => ['--filter', p.name]),
    '--access',
    'public',
    ...(options.dryRun ? ['--dry-run'] : []),
    ...(options.registry === undefined ? [] : ['--registry', options.registry]),
    ...(options.gitChecks ? [] : ['--no-git-checks']),
  ];
}

export function publishPackages(root: string, packages: readonly WorkspacePackage[], options: PublishOptions): boolean {
  return runPnpm(root, publishArgs(packages, options), { cwd: root, echo: true }).status === 0;
}
