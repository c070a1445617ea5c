#!/usr/bin/env tsx
// `pnpm release:check`, `pnpm release:dry-run` and `pnpm release`. Publishing refuses while
// changesets are pending (versions would not match the changelogs), builds through nx, runs
// every check on the packed tarballs, and only then publishes.
import { buildPackages } from './build-packages.js';
import { publishPackages } from './publish-packages.js';
import { pendingChangesets } from './registry-rule.js';
import { releaseCheck } from './release-check.js';
import { parseReleaseOptions, type ReleaseOptions } from './release-options.js';
import { formatProblem } from './release-problem.js';
import { publishablePackages } from './workspace-packages.js';

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function run(options: ReleaseOptions): Promise<number> {
  const packages = publishablePackages(options.root);
  say(`release: ${packages.map((p) => `${p.name}@${p.version}`).join(', ')}`);
  if (options.command === 'publish') {
    const pending = pendingChangesets(options.root);
    if (pending.length > 0) {
      process.stderr.write(
        `[changesets_pending] .changeset/ holds ${pending.join(', ')}: run \`pnpm changeset version\`, review and commit the versions and changelogs, then release\n`,
      );
      return 1;
    }
  }
  if (options.build && !buildPackages(options.root, packages)) {
    process.stderr.write('release: the build failed\n');
    return 1;
  }
  const problems = await releaseCheck(options.root, packages);
  for (const problem of problems) process.stderr.write(`${formatProblem(problem)}\n`);
  if (problems.length > 0) {
    process.stderr.write(`release: ${problems.length} problem(s); nothing was published\n`);
    return 1;
  }
  say(`release: checks passed for ${packages.length} package(s) (tarball contents, manifest, ranges, publint, attw --profile esm-only, registry rule)`);
  if (options.command === 'check') return 0;
  const { registry, dryRun, gitChecks } = options;
  if (!publishPackages(options.root, packages, { dryRun, gitChecks, ...(registry === undefined ? {} : { registry }) })) {
    process.stderr.write('release: pnpm publish failed\n');
    return 1;
  }
  say(dryRun ? 'release: dry run done; nothing was published' : 'release: published; now tag it: pnpm changeset tag && git push --follow-tags');
  return 0;
}

const options = parseReleaseOptions(process.argv.slice(2));
if (typeof options === 'string') {
  process.stderr.write(`${options}\n`);
  process.exit(2);
}
process.exit(await run(options));
