import { afterEach, describe, expect, it } from 'vitest';
import { defaultRoot } from '../src/release-options.js';
import { publishablePackages, workspacePackages } from '../src/workspace-packages.js';
import { createFixtureRoot, type FixtureRoot } from './package-fixtures.js';

describe('publishablePackages', () => {
  let fixture: FixtureRoot | undefined;
  afterEach(() => fixture?.dispose());

  it('finds every non-private package under packages/, dependencies first, and nothing under tools/', () => {
    fixture = createFixtureRoot();
    fixture.writePackage('packages/app', { name: '@x/app', version: '1.0.0', dependencies: { '@x/mid': 'workspace:^' } });
    fixture.writePackage('packages/mid', { name: '@x/mid', version: '1.0.0', peerDependencies: { '@x/base': 'workspace:^' } });
    fixture.writePackage('packages/base', { name: '@x/base', version: '1.0.0' });
    fixture.writePackage('packages/secret', { name: '@x/secret', version: '1.0.0', private: true });
    fixture.writePackage('tools/tool', { name: '@x/tool', version: '1.0.0' });
    fixture.write('packages/not-a-package/README.md', 'no manifest here\n');
    expect(publishablePackages(fixture.root).map((p) => p.name)).toEqual(['@x/base', '@x/mid', '@x/app']);
    expect(workspacePackages(fixture.root).map((p) => p.name)).toContain('@x/secret');
  });

  it('refuses a dependency cycle, naming it', () => {
    fixture = createFixtureRoot();
    fixture.writePackage('packages/a', { name: 'a', version: '1.0.0', dependencies: { b: '1' } });
    fixture.writePackage('packages/b', { name: 'b', version: '1.0.0', dependencies: { a: '1' } });
    expect(() => publishablePackages(fixture!.root)).toThrow(/cycle: a -> b -> a/);
  });

  it('covers this repository: schema first, every package from packages/, none private', () => {
    const packages = publishablePackages(defaultRoot());
    expect(packages[0]?.name).toBe('@mcpproxy/schema');
    expect(packages.map((p) => p.name)).toContain('@mcpproxy/evaluator');
    for (const pkg of packages) expect(pkg.dir).toMatch(/[/\\]packages[/\\][^/\\]+$/);
    expect(packages.map((p) => p.name)).not.toContain('@mcpproxy/codegen');
    expect(packages.map((p) => p.name)).not.toContain('@mcpproxy/release');
  });
});
