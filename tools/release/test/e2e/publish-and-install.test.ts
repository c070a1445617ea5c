// Issues 8 and 15, end to end: a real registry (verdaccio, local, no uplinks) and three releases
// made by the release command. v1 from a copy of the v1 release commit (found in git history),
// each package installed alone into a fresh project and used; v2 from a copy of the working tree
// after `changeset version`, the v2 extension installed alone with the SDK's server package (nothing
// native) serves a plain SDK server's rider on both revisions, the v2 client's AI SDK adapter
// installed with that runtime alone gates on the v2 gateway, and the v1 cli and client read the v2
// gateway's server_saturated through their own registry's reserved entry; v3 from the same copy
// after `pnpm registry add` of a code made up for the test, which every older cli and client reads
// as blocked.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';
import { releaseCommit } from '@mcpproxy/codegen/src/released-baseline.js';
import { repoPaths } from '@mcpproxy/codegen/src/repo-paths.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pnpmSpec } from '../../src/pnpm-command.js';
import { defaultRoot } from '../../src/release-options.js';
import { publishablePackages, type WorkspacePackage } from '../../src/workspace-packages.js';
import { groupAlive, killLiveGroups, runBounded, startService, type BoundedResult, type RunningService } from './bounded-command.js';
import { expectVersionedAsSaid, pendingRelease } from './changeset-expectations.js';
import { cleanEnv, createConsumerProject, type ConsumerProject } from './consumer-project.js';
import { CONSUMER_STEPS, consumerScript, expectExit, type StepContext } from './consumer-steps.js';
import { startInstalledGateway, type InstalledGateway } from './installed-gateway.js';
import { startLocalRegistry, type LocalRegistry } from './local-registry.js';
import { nativeModulesIn } from './native-modules.js';
import { OVERLOADED_TOOL, startOverloadableUpstream, type OverloadableUpstream } from './overloadable-upstream.js';
import { publishedManifest, publishedVersions } from './published-manifest.js';
import { runtimeClosure, seedRegistry } from './registry-seed.js';
import { createTempWorkspace, pnpmEnv, type TempWorkspace } from './temp-workspace.js';
import { compileProbe } from './types-probe.js';
import { NEW_CODE, REGISTRY_ADD_ARGS } from './v3-reason-code.js';

const REPO = defaultRoot();
const PACKAGES = publishablePackages(REPO);
const NAMES = new Set(PACKAGES.map((p) => p.name));
const STEP_TIMEOUT_MS = 600_000;
const SCHEMA_STEP = CONSUMER_STEPS.find((s) => s.package === '@mcpproxy/schema')!;

let scratch: string;
let registry: LocalRegistry;
/** The v1 release commit: the first whose packages/schema/CHANGELOG.md names settings version 1. */
let v1Commit: string;
/** A copy of the v1 release commit: the first release. */
let v1Repo: TempWorkspace;
/** A copy of the working tree: the second release, then the test's own third build. */
let repo: TempWorkspace;
let npmCache: string;
let firstVersions: Map<string, string>;
let secondVersions: Map<string, string>;
let thirdVersions: Map<string, string>;
/** The gateway the cli step starts, for the steps after it. */
const stepContext: StepContext = {};
/** Each step's project, pinned to the first versions: the v1 consumers of the later releases. */
const firstProjects = new Map<string, ConsumerProject>();
/** The v2 cli (whose gateway is the saturated one) and the v2 client, pinned: old consumers of v3. */
const secondProjects = new Map<string, ConsumerProject>();

/** A root script of a temporary copy, run the way a maintainer runs it. */
function pnpmScript(args: readonly string[], timeoutMs = STEP_TIMEOUT_MS, root = repo.root): Promise<BoundedResult> {
  return runBounded('npx', ['-y', pnpmSpec(root), ...args], { cwd: root, env: pnpmEnv(cleanEnv()), timeoutMs });
}

function output(result: BoundedResult): string {
  return `exit ${result.status}${result.timedOut ? ' (timed out)' : ''}\n${result.stdout}\n${result.stderr}`;
}

/** The version of a dependency installed for one workspace package (the one the registry was seeded with). */
function installedVersion(root: string, packageDir: string, name: string): string {
  return (JSON.parse(readFileSync(join(root, packageDir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

function versionsIn(root: string): Map<string, string> {
  return new Map(publishablePackages(root).map((p) => [p.name, p.version]));
}

function consumer(name: string): ConsumerProject {
  return createConsumerProject(join(scratch, 'consumers', name), registry.url, npmCache);
}

async function expectPublished(versions: ReadonlyMap<string, string>, root = repo.root): Promise<void> {
  const workspace: WorkspacePackage[] = publishablePackages(root);
  for (const [name, version] of versions) {
    expect(await publishedVersions(registry.url, name), `${name}@${version} in the registry`).toContain(version);
    const manifest = await publishedManifest(registry.url, name, version, scratch);
    for (const [dep, range] of Object.entries((manifest['dependencies'] ?? {}) as Record<string, string>)) {
      expect(range, `${name} -> ${dep}`).not.toMatch(/^workspace:/);
      const internal = workspace.find((p) => p.name === dep);
      if (internal !== undefined) expect(semver.satisfies(internal.version, range), `${name} -> ${dep}@${range} accepts ${internal.version}`).toBe(true);
    }
  }
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'mcpproxy-release-e2e-'));
  npmCache = join(scratch, 'npm-cache');
  mkdirSync(npmCache);
  registry = await startLocalRegistry(join(scratch, 'registry'));
  const found = releaseCommit(repoPaths(REPO), 1);
  if (found === undefined) throw new Error('no commit in the history names settings version 1 in packages/schema/CHANGELOG.md (a shallow clone? fetch the whole history)');
  v1Commit = found.commit;
  v1Repo = createTempWorkspace(REPO, 'mcpproxy-release-v1-', v1Commit);
  repo = createTempWorkspace(REPO);
  // The registry proxies nothing: the third-party runtime dependencies come from our own install.
  const roots = PACKAGES.map((p) => ({ dir: p.dir, manifest: p.manifest }));
  await seedRegistry(registry.url, runtimeClosure(roots, NAMES));
}, 180_000);

afterAll(async () => {
  killLiveGroups();
  await registry?.stop();
  repo?.dispose();
  v1Repo?.dispose();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('the registry has nothing but what we put there', () => {
  it('answers 404 for a package nobody published (no uplink to the public registry)', async () => {
    expect(PACKAGES.length).toBeGreaterThan(0);
    expect(await publishedVersions(registry.url, 'left-pad')).toEqual([]);
    expect(await publishedVersions(registry.url, PACKAGES[0]!.name)).toEqual([]);
  });
});

describe('first release: v1, from the v1 release commit', () => {
  // The copy holds the v1 release commit's tree: `changeset version` already ran there, so
  // running it again finds nothing pending and every package stays at a version its changelog names.
  it('copies the first commit whose schema changelog names settings version 1, where nothing is pending', async () => {
    const changelog = (root: string): string => readFileSync(join(root, 'packages', 'schema', 'CHANGELOG.md'), 'utf8');
    expect(changelog(v1Repo.root)).toMatch(/settings version 1(?![0-9])/);
    expect(changelog(v1Repo.root)).not.toMatch(/settings version 2(?![0-9])/);
    const before = versionsIn(v1Repo.root);
    const result = await pnpmScript(['changeset', 'version'], STEP_TIMEOUT_MS, v1Repo.root);
    expect(result.status, output(result)).toBe(0);
    firstVersions = versionsIn(v1Repo.root);
    expect(firstVersions, `nothing pending at ${v1Commit}`).toEqual(before);
    for (const pkg of publishablePackages(v1Repo.root)) {
      expect(semver.gt(pkg.version, '0.0.0'), `${pkg.name} ${pkg.version} is a released version`).toBe(true);
      expect(readFileSync(join(pkg.dir, 'CHANGELOG.md'), 'utf8'), `${pkg.name} CHANGELOG.md`).toContain(`## ${pkg.version}`);
    }
  });

  it('`pnpm release:dry-run` builds, checks and packs every package but publishes nothing', async () => {
    const result = await pnpmScript(['release:dry-run', '--registry', `${registry.url}/`, '--no-git-checks'], STEP_TIMEOUT_MS, v1Repo.root);
    expect(result.status, output(result)).toBe(0);
    expect(result.stdout).toContain('checks passed');
    expect(result.stdout).toContain('dry run done');
    for (const name of NAMES) expect(await publishedVersions(registry.url, name), name).toEqual([]);
  });

  it('`pnpm release` builds, checks and publishes every package to the local registry', async () => {
    const result = await pnpmScript(['release', '--registry', `${registry.url}/`, '--no-git-checks'], STEP_TIMEOUT_MS, v1Repo.root);
    expect(result.status, output(result)).toBe(0);
    expect(result.stdout).toContain('checks passed');
    await expectPublished(firstVersions, v1Repo.root);
  });

  it('has consumer steps only for packages it publishes', () => {
    expect(CONSUMER_STEPS.length).toBeGreaterThan(0);
    for (const step of CONSUMER_STEPS) expect(NAMES.has(step.package), `${step.package} is published`).toBe(true);
  });

  for (const step of CONSUMER_STEPS) {
    it(`installs ${step.package} alone and ${step.use}`, async () => {
      const project = consumer(`first-${step.package.replace(/\W+/g, '-')}`);
      const installed = await project.install(`${step.package}@${firstVersions.get(step.package)}`, ...(step.peers ?? []));
      expect(installed.status, output(installed)).toBe(0);
      expect(project.installedVersion(step.package)).toBe(firstVersions.get(step.package));
      firstProjects.set(step.package, project);
      if (step.starts === 'gateway') stepContext.gateway = await startInstalledGateway(project.dir);
      step.verify(await project.runScript(step.script, step.args?.(stepContext) ?? []));
    }, STEP_TIMEOUT_MS);
  }

  it("stops the installed cli's gateway, its whole process group", async () => {
    const gateway = stepContext.gateway;
    expect(gateway, 'the @mcpproxy/cli step started a gateway').toBeDefined();
    await gateway!.service.stop();
    delete stepContext.gateway;
    expect(groupAlive(gateway!.service.pid)).toBe(false);
  });
});

/** A step's project from an earlier release, installed again from its pins (as its CI would). */
async function pinned(projects: ReadonlyMap<string, ConsumerProject>, versions: ReadonlyMap<string, string>, name: string): Promise<ConsumerProject> {
  const project = projects.get(name);
  expect(project, `the ${name} project exists`).toBeDefined();
  const reinstalled = await project!.install();
  expect(reinstalled.status, output(reinstalled)).toBe(0);
  expect(project!.installedVersion(name)).toBe(versions.get(name));
  return project!;
}

describe('second release: v2, settings version 2, from the working tree', () => {
  it('versions what the pending changesets say: a schema minor whose changelog names settings version 2 and server_saturated', async () => {
    const pending = pendingRelease(repo.root);
    const before = [...pending.packages].map(([name, p]) => [name, p.before] as const);
    expect(before.filter(([name]) => firstVersions.has(name)), 'the working tree starts where v1 ended').toEqual([...firstVersions]);
    // A package new since v1 (@mcpproxy/extension) is unreleased, and a changeset names it.
    for (const [name, version] of before.filter(([name]) => !firstVersions.has(name))) {
      expect(version, `${name} is new since v1`).toBe('0.0.0');
      expect(pending.packages.get(name)!.bump, `a changeset names ${name}`).toBeDefined();
    }
    const result = await pnpmScript(['changeset', 'version']);
    expect(result.status, output(result)).toBe(0);
    secondVersions = expectVersionedAsSaid(repo.root, pending);
    expect(pending.packages.get('@mcpproxy/schema')!.bump).toBe('minor');
    const changelog = readFileSync(join(repo.root, 'packages', 'schema', 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(/settings version 2(?![0-9])/);
    expect(changelog).toContain('server_saturated');
  });

  it('`pnpm release` publishes v2 to the same registry', async () => {
    const result = await pnpmScript(['release', '--registry', `${registry.url}/`, '--no-git-checks']);
    expect(result.status, output(result)).toBe(0);
    expect(result.stdout).toContain('checks passed');
    await expectPublished(secondVersions);
    for (const [name, version] of firstVersions) expect(await publishedVersions(registry.url, name), `${name}@${version} still there`).toContain(version);
  });

  // New in v2: a server author installs the extension and the SDK's server package, and nothing of the gateway.
  it('installs the v2 @mcpproxy/extension alone with @modelcontextprotocol/server (no @mcpproxy/server, nothing native): a plain SDK server answers a rider on both revisions with a schema-valid facet', async () => {
    const project = consumer('second-extension');
    const sdkServer = `@modelcontextprotocol/server@${installedVersion(REPO, 'packages/extension', '@modelcontextprotocol/server')}`;
    const installed = await project.install(`@mcpproxy/extension@${secondVersions.get('@mcpproxy/extension')}`, sdkServer);
    expect(installed.status, output(installed)).toBe(0);
    expect(Object.keys((JSON.parse(readFileSync(join(project.dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies).sort()).toEqual([
      '@mcpproxy/extension',
      '@modelcontextprotocol/server',
    ]);
    // The validators the script checks with are the published schema the extension depends on.
    expect(project.installedVersion('@mcpproxy/schema')).toBe(secondVersions.get('@mcpproxy/schema'));
    expect(readdirSync(join(project.dir, 'node_modules', '@mcpproxy')).sort()).toEqual(['evaluator', 'extension', 'schema']);
    expect(nativeModulesIn(join(project.dir, 'node_modules')), 'native modules in the install').toEqual([]);
    const report = await project.runScript(consumerScript('extension-attach.mjs'));
    const eras = report['eras'] as Record<string, { advertised: unknown; facet: { verdict: string; tools: { id: string; status: string; reason?: string }[] } | null; strict: boolean; errors: unknown; listed: string[] }>;
    expect(Object.keys(eras)).toEqual(['2025-11-25', '2026-07-28']);
    for (const [era, answer] of Object.entries(eras)) {
      expect(answer.advertised, `${era}: ${JSON.stringify(answer)}`).toMatchObject({ version: expect.any(Number), max_tools: 50 });
      expect(answer.strict, `${era}: the facet is valid under the published strict validators: ${JSON.stringify(answer)}`).toBe(true);
      expect(answer.listed, era).toEqual(['lookup', 'send_report']);
      expect(answer.facet!.tools.map((t) => [t.id, t.reason ?? t.status]), era).toEqual([
        ['lookup', 'ready'],
        ['send_report', 'server_initializing'],
        ['archive', 'not_found'],
      ]);
      expect(answer.facet!.verdict, era).not.toBe('ready');
    }
    // One activity record per check, each valid under the same validators.
    expect(report['records']).toEqual([
      { surface: 'mcp-rider', verdict: eras['2025-11-25']!.facet!.verdict, strict: true },
      { surface: 'mcp-rider', verdict: eras['2026-07-28']!.facet!.verdict, strict: true },
    ]);
  }, STEP_TIMEOUT_MS);
});

describe('upgrade path: the v1 cli and client against a v2 gateway whose HTTP upstream is saturated', () => {
  let upstream: OverloadableUpstream;
  let gateway: InstalledGateway;
  const TOOL_ID = `busy:${OVERLOADED_TOOL}`;

  it('starts the v2 `mcpproxy serve` over the installed fixture upstream on HTTP, ready', async () => {
    const project = consumer('second-cli-gateway');
    const installed = await project.install(`@mcpproxy/cli@${secondVersions.get('@mcpproxy/cli')}`);
    expect(installed.status, output(installed)).toBe(0);
    expect(project.installedVersion('@mcpproxy/cli')).toBe(secondVersions.get('@mcpproxy/cli'));
    expect(project.installedVersion('@mcpproxy/server')).toBe(secondVersions.get('@mcpproxy/server'));
    secondProjects.set('@mcpproxy/cli', project);
    upstream = await startOverloadableUpstream(project.dir);
    gateway = await startInstalledGateway(project.dir, [{ name: 'busy', url: upstream.url, quarantined: false }]);
    // --wait tops out at 10 s: a few bounded waits in a row, for a loaded machine.
    let run: (Parameters<typeof expectExit>[0] & { document: Record<string, unknown> }) | undefined;
    for (let attempt = 0; attempt < 6 && run?.status !== 0; attempt += 1) {
      const report = await project.runScript(consumerScript('cli-preflight.mjs'), [gateway.origin, gateway.apiKey, '10s', TOOL_ID]);
      run = (report['preflights'] as { json: typeof run }[])[0]!.json;
    }
    expectExit(run!, 0);
    expect(run!.document).toMatchObject({ verdict: 'ready', tools: [{ id: TOOL_ID, status: 'ready' }] });
  }, STEP_TIMEOUT_MS);

  // The adapters are new in v2: a user installs the client and one runtime, and gets no other.
  it('installs the v2 @mcpproxy/client with @ai-sdk/mcp alone (no other agent runtime, no MCP SDK) and gates the AI SDK client: the rider, ready', async () => {
    const project = consumer('second-client-ai-sdk');
    const aiSdkMcp = `@ai-sdk/mcp@${installedVersion(REPO, 'packages/client', '@ai-sdk/mcp')}`;
    const installed = await project.install(`@mcpproxy/client@${secondVersions.get('@mcpproxy/client')}`, aiSdkMcp);
    expect(installed.status, output(installed)).toBe(0);
    const report = await project.runScript(consumerScript('client-ai-sdk.mjs'), [gateway.mcpUrl, TOOL_ID]);
    expect(report, `${JSON.stringify(report)}\n${gateway.service.output()}`).toMatchObject({ threw: false, verdict: 'ready', carriage: 'rider', tools: [{ id: TOOL_ID, status: 'ready' }] });
    expect(report['installed']).toEqual(['@ai-sdk/mcp']);
  }, STEP_TIMEOUT_MS);

  it('a tools/call that meets the upstream answering 429 (Retry-After 600) marks the server saturated', async () => {
    upstream.overload({ status: 429, retry_after: '600' });
    const project = await pinned(firstProjects, firstVersions, '@mcpproxy/client');
    const call = await project.runScript(consumerScript('call-tool.mjs'), [gateway.mcpUrl, TOOL_ID]);
    // The call is refused (as a tool error or a JSON-RPC error), never echoed.
    expect(call['threw'] === true || call['is_error'] === true, `${JSON.stringify(call)}\n${gateway.service.output()}`).toBe(true);
    expect(JSON.stringify(call)).not.toContain('"n":1');
  }, STEP_TIMEOUT_MS);

  it('the v1 cli exits 10 (retryable) and prints server_saturated, read through its reserved entry', async () => {
    const project = await pinned(firstProjects, firstVersions, '@mcpproxy/cli');
    const report = await project.runScript(consumerScript('cli-preflight.mjs'), [gateway.origin, gateway.apiKey, 'none', TOOL_ID]);
    const [run] = report['preflights'] as { json: Parameters<typeof expectExit>[0] & { document: Record<string, unknown> }; table: Parameters<typeof expectExit>[0] }[];
    expectExit(run!.json, 10);
    expect(run!.json.document).toMatchObject({
      verdict: 'degraded_retryable',
      exit_code: 10,
      carriage: 'rest',
      tools: [{ id: TOOL_ID, status: 'unavailable', reason: 'server_saturated', retryable: true }],
    });
    expectExit(run!.table, 10);
    expect(run!.table.stdout).toContain('server_saturated');
  }, STEP_TIMEOUT_MS);

  it('the v1 client reads server_saturated as known, retryable, degraded_retryable, without throwing', async () => {
    const project = await pinned(firstProjects, firstVersions, '@mcpproxy/client');
    const report = await project.runScript(consumerScript('client-preflight.mjs'), [gateway.origin, TOOL_ID]);
    expect(report, `${JSON.stringify(report)}\n${gateway.service.output()}`).toMatchObject({
      threw: false,
      verdict: 'degraded_retryable',
      tools: [{ id: TOOL_ID, status: 'unavailable', reason: 'server_saturated', known: true, class: 'retryable', retryable: true }],
    });
  }, STEP_TIMEOUT_MS);

  it('stops the v2 gateway and the upstream, their whole process groups', async () => {
    await gateway.service.stop();
    await upstream.service.stop();
    expect(groupAlive(gateway.service.pid)).toBe(false);
    expect(groupAlive(upstream.service.pid)).toBe(false);
  });
});

describe('third build: v3, a code added with `pnpm registry add`', () => {
  const changesetFile = (): string => join(repo.root, '.changeset', 'settings-version-3.md');

  it('`pnpm registry add` writes the registry, the frozen v3 copy and the changeset, and says what is left by hand', async () => {
    const result = await pnpmScript([...REGISTRY_ADD_ARGS]);
    expect(result.status, output(result)).toBe(0);
    expect(result.stdout).toContain(`registry add ${NEW_CODE}: settings version 3`);
    expect(result.stdout).toContain('Left for you to write by hand');
    expect(existsSync(join(repo.root, 'spec', 'released', 'v3.json'))).toBe(true);
    const changeset = readFileSync(changesetFile(), 'utf8');
    expect(changeset).toMatch(/"@mcpproxy\/schema": minor/);
    expect(changeset).toMatch(/settings version 3(?![0-9])/);
    expect(changeset).toContain(NEW_CODE);
  });

  it('release:check fails without the changeset the command wrote (the one step a person could still drop), and passes with it', async () => {
    // Everything else the command does in one step: there is no half-done state to check.
    const aside = join(scratch, 'settings-version-3.md');
    renameSync(changesetFile(), aside);
    const without = await pnpmScript(['release:check', '--no-build']);
    renameSync(aside, changesetFile());
    expect(without.status, output(without)).toBe(1);
    expect(without.stderr).toContain('changeset_missing');
    expect(without.stderr).toContain(NEW_CODE);
    const result = await pnpmScript(['release:check', '--no-build']);
    expect(result.status, output(result)).toBe(0);
  });

  it('versions what the changesets say (a schema minor whose changelog names settings version 3 and the code) and publishes v3', async () => {
    const pending = pendingRelease(repo.root);
    expect(pending.packages.get('@mcpproxy/schema')!.bump).toBe('minor');
    const versioned = await pnpmScript(['changeset', 'version']);
    expect(versioned.status, output(versioned)).toBe(0);
    thirdVersions = expectVersionedAsSaid(repo.root, pending);
    const changelog = readFileSync(join(repo.root, 'packages', 'schema', 'CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(/settings version 3(?![0-9])/);
    expect(changelog).toContain(NEW_CODE);
    const result = await pnpmScript(['release', '--registry', `${registry.url}/`, '--no-git-checks']);
    expect(result.status, output(result)).toBe(0);
    await expectPublished(thirdVersions);
  });
});

describe('across v2 and v3', () => {
  let oldProject: ConsumerProject;
  let newProject: ConsumerProject;
  let newReport: Record<string, unknown>;

  it('the v3 packages expose the code in constants, validators, OpenAPI and fixtures', async () => {
    newProject = consumer('third-schema');
    const installed = await newProject.install(`@mcpproxy/schema@${thirdVersions.get('@mcpproxy/schema')}`);
    expect(installed.status, output(installed)).toBe(0);
    newReport = await newProject.runScript(consumerScript('new-exposes-code.mjs'), [NEW_CODE]);
    expect(newReport['reason_codes']).toContain(NEW_CODE);
    expect(newReport['in_rider_codes']).toBe(true);
    expect(newReport['registry_entry']).toMatchObject({ retryable: true, verdict: 'degraded_retryable', since: newReport['settings_version'] });
    expect(newReport['openapi_mentions']).toBe(true);
    expect((newReport['fixtures'] as string[]).length).toBeGreaterThan(0);
    expect(newReport['fixtures_strict_ok']).not.toContain(false);
    expect(newReport['rider_instance']).toMatchObject({ reason: NEW_CODE, retryable: true });
  });

  it('the v3 package types know the code (and its retryable value); the v2 ones do not', async () => {
    const compiled = compileProbe(newProject.dir, NEW_CODE);
    expect(compiled.output).toBe('');
    oldProject = consumer('second-pinned');
    const installed = await oldProject.install(
      `@mcpproxy/schema@${secondVersions.get('@mcpproxy/schema')}`,
      `@mcpproxy/evaluator@${secondVersions.get('@mcpproxy/evaluator')}`,
    );
    expect(installed.status, output(installed)).toBe(0);
    const old = compileProbe(oldProject.dir, NEW_CODE);
    expect(old.ok).toBe(false);
    expect(old.output).toContain(NEW_CODE);
  });

  it('a consumer pinned to v2 keeps working after the v3 release', async () => {
    // A fresh install of the pinned project (as its CI would do) stays on the old versions.
    const reinstalled = await oldProject.install();
    expect(reinstalled.status, output(reinstalled)).toBe(0);
    expect(oldProject.installedVersion('@mcpproxy/schema')).toBe(secondVersions.get('@mcpproxy/schema'));
    expect(oldProject.installedVersion('@mcpproxy/evaluator')).toBe(secondVersions.get('@mcpproxy/evaluator'));
    const report = await oldProject.runScript(SCHEMA_STEP.script);
    SCHEMA_STEP.verify(report);
    expect(report['settings_version']).toBe((newReport['settings_version'] as number) - 1);
  });

  it('the v2 consumer reads the new code from a v3 producer as blocked, permanent and non-retryable, without throwing', async () => {
    const verdict = newReport['rider_instance'] as Record<string, unknown>;
    const example = newReport['example_response_facet'] as Record<string, unknown>;
    const answers = { code: NEW_CODE, verdict, facet: { ...example, verdict: 'degraded_retryable', tools: [{ id: 'github:list_issues', status: 'ready' }, verdict] } };
    const file = join(oldProject.dir, 'answers.json');
    writeFileSync(file, JSON.stringify(answers));
    const report = await oldProject.runScript(consumerScript('old-reads-new.mjs'), [file]);
    expect(report).toMatchObject({
      threw: false,
      knows_code: false,
      strict_verdict: false,
      lenient_verdict: true,
      lenient_facet: true,
      treatment: { known: false, class: 'permanent', retryable: false, verdict: 'blocked', exit_code: 11 },
      client_verdict: 'blocked',
      evaluator_verdict: 'blocked',
    });
  });

  describe('a producer of the new code, built from the v3 packages, and the v1 and v2 cli and client', () => {
    const LATER_ID = 'demo:later';
    let producer: RunningService;
    let origin: string;

    it('starts: REST answers validated by the v3 strict schema, MCP through the v3 @mcpproxy/extension', async () => {
      const project = consumer('third-producer');
      const server = PACKAGES.find((p) => p.name === '@mcpproxy/server')!;
      const sdk = (server.manifest['dependencies'] ?? {}) as Record<string, string>;
      const installed = await project.install(
        `@mcpproxy/extension@${thirdVersions.get('@mcpproxy/extension')}`,
        ...['@modelcontextprotocol/server', '@modelcontextprotocol/node'].map((name) => `${name}@${sdk[name]}`),
      );
      expect(installed.status, output(installed)).toBe(0);
      expect(project.installedVersion('@mcpproxy/schema')).toBe(thirdVersions.get('@mcpproxy/schema'));
      const verdict = { ...(newReport['rider_instance'] as Record<string, unknown>), id: LATER_ID };
      expect(verdict).toMatchObject({ status: 'unavailable', reason: NEW_CODE });
      writeFileSync(join(project.dir, 'later.json'), JSON.stringify(verdict));
      const script = join(project.dir, 'new-code-producer.mjs');
      cpSync(consumerScript('new-code-producer.mjs'), script);
      const started = await startService(process.execPath, [script, join(project.dir, 'later.json')], {
        cwd: project.dir,
        env: cleanEnv(),
        timeoutMs: 30_000,
        ready: /"origin":"(http:\/\/127\.0\.0\.1:\d+)"/,
      });
      producer = started.service;
      origin = started.match[1]!;
    }, STEP_TIMEOUT_MS);

    it('installs the v2 client beside the v2 cli', async () => {
      const project = consumer('second-client');
      const installed = await project.install(`@mcpproxy/client@${secondVersions.get('@mcpproxy/client')}`, '@modelcontextprotocol/client');
      expect(installed.status, output(installed)).toBe(0);
      secondProjects.set('@mcpproxy/client', project);
    }, STEP_TIMEOUT_MS);

    for (const release of ['v1', 'v2'] as const) {
      const projects = release === 'v1' ? firstProjects : secondProjects;
      const versions = (): Map<string, string> => (release === 'v1' ? firstVersions : secondVersions);

      it(`the ${release} cli exits 11 (blocked) and prints the code, without crashing`, async () => {
        const project = await pinned(projects, versions(), '@mcpproxy/cli');
        const report = await project.runScript(consumerScript('cli-preflight.mjs'), [origin, 'an-admin-key-the-stand-in-ignores', 'none', 'demo:echo', LATER_ID]);
        const [run] = report['preflights'] as { json: Parameters<typeof expectExit>[0] & { document: Record<string, unknown> }; table: Parameters<typeof expectExit>[0] }[];
        expectExit(run!.json, 11);
        expect(run!.json.document).toMatchObject({
          verdict: 'blocked',
          exit_code: 11,
          carriage: 'rest',
          tools: [{ id: 'demo:echo', status: 'ready' }, { id: LATER_ID, status: 'unavailable', reason: NEW_CODE }],
        });
        expectExit(run!.table, 11);
        expect(run!.table.stdout).toContain(NEW_CODE);
      }, STEP_TIMEOUT_MS);

      it(`the ${release} client's preflight reports the tool unavailable: unknown code, permanent, non-retryable, blocked, not thrown`, async () => {
        const project = await pinned(projects, versions(), '@mcpproxy/client');
        const report = await project.runScript(consumerScript('client-preflight.mjs'), [origin, 'demo:echo', LATER_ID]);
        // A settings-version bump only adds codes: the v3 extension still serves an older client's
        // mirror, and the older client reads the v3 answer in band, leniently.
        expect(report, `${JSON.stringify(report)}\n${producer.output()}`).toMatchObject({
          threw: false,
          verdict: 'blocked',
          carriage: 'rider',
          tools: [
            { id: 'demo:echo', status: 'ready' },
            { id: LATER_ID, status: 'unavailable', reason: NEW_CODE, known: false, class: 'permanent', retryable: false },
          ],
        });
      }, STEP_TIMEOUT_MS);
    }

    it('stops the producer, its whole process group', async () => {
      await producer.stop();
      expect(groupAlive(producer.pid)).toBe(false);
    });
  });

  it('a consumer of v3 reads every answer of v2 (the v2 fixtures, strictly)', async () => {
    const oldFixtures = join(oldProject.dir, 'node_modules', '@mcpproxy', 'schema', 'fixtures');
    const report = await newProject.runScript(SCHEMA_STEP.script, [oldFixtures]);
    expect(report['fixtures_settings_version']).toBe((newReport['settings_version'] as number) - 1);
    // Valid answers stay valid (codes are never removed); the old invalid set is version-bound
    // (a settings version of 3 was invalid then), so only the valid ones carry over.
    expect(report['valid_checked']).toBeGreaterThan(0);
    expect(report['valid_failures']).toEqual([]);
  });
});

describe('cleanup', () => {
  it("left the real installation alone (pnpm's state there does not know the copy)", () => {
    for (const name of ['.pnpm-workspace-state-v1.json', '.modules.yaml']) {
      const state = join(REPO, 'node_modules', name);
      if (existsSync(state)) expect(readFileSync(state, 'utf8'), name).not.toContain(repo.root);
    }
  });

  it('stops the registry and leaves no process of this test running', async () => {
    const pid = registry.pid;
    await registry.stop();
    expect(groupAlive(pid) || processAlive(pid)).toBe(false);
    expect(killLiveGroups()).toBe(0);
  });
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
