import { describe, expect, it } from 'vitest';
import { publishArgs } from '../src/publish-packages.js';
import { defaultRoot, parseReleaseOptions, USAGE } from '../src/release-options.js';
import type { WorkspacePackage } from '../src/workspace-packages.js';

describe('parseReleaseOptions', () => {
  it('defaults to this checkout, a build first, a real publish with git checks', () => {
    expect(parseReleaseOptions(['publish'])).toEqual({ command: 'publish', root: defaultRoot(), build: true, dryRun: false, gitChecks: true });
  });

  it('reads every switch', () => {
    expect(parseReleaseOptions(['publish', '--dry-run', '--registry', 'http://127.0.0.1:4873/', '--no-git-checks', '--no-build', '--root', '/tmp/x'])).toEqual({
      command: 'publish',
      root: '/tmp/x',
      build: false,
      dryRun: true,
      gitChecks: false,
      registry: 'http://127.0.0.1:4873/',
    });
  });

  it('answers a usage error as a string', () => {
    expect(parseReleaseOptions([])).toBe(USAGE);
    expect(parseReleaseOptions(['ship'])).toBe(USAGE);
    expect(parseReleaseOptions(['check', '--dry-run'])).toMatch(/unknown argument: --dry-run/);
    expect(parseReleaseOptions(['publish', '--registry'])).toMatch(/needs an http/);
    expect(parseReleaseOptions(['publish', '--registry', 'ftp://x'])).toMatch(/needs an http/);
    expect(parseReleaseOptions(['check', '--root'])).toMatch(/needs a directory/);
  });
});

describe('publishArgs', () => {
  const pkg = (name: string): WorkspacePackage => ({ name, version: '1.0.0', dir: '/x', manifest: { name, version: '1.0.0' } });

  it('publishes exactly the checked packages, publicly, with the registry and dry-run passed through', () => {
    expect(publishArgs([pkg('@x/a'), pkg('@x/b')], { dryRun: true, gitChecks: false, registry: 'http://127.0.0.1:1/' })).toEqual([
      'publish', '-r', '--filter', '@x/a', '--filter', '@x/b', '--access', 'public', '--dry-run', '--registry', 'http://127.0.0.1:1/', '--no-git-checks',
    ]);
    expect(publishArgs([pkg('@x/a')], { dryRun: false, gitChecks: true })).toEqual(['publish', '-r', '--filter', '@x/a', '--access', 'public']);
  });
});
