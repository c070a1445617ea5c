// Issue 8, end to end: a real registry (verdaccio, local, no uplinks), every package published
// by the release command from a temporary copy of the repository, each installed alone into a
// fresh project and used; then a reason code added the maintainer's way, versioned with
// changesets and published again, and both directions across the two versions shown.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pnpmSpec } from '../../src/pnpm-command.js';
import { defaultRoot } from '../../src/release-options.js';
import { publishablePackages, type WorkspacePackage } from '../../src/workspace-packages.js';
import { addCodeEntry, announce, bumpAndFreeze, NEW_CODE } from './add-reason-code.js';
import { groupAlive, killLiveGroups, runBounded, startService, type BoundedResult, type RunningService } from './bounded-command.js';
import { cleanEnv, createConsumerProject, type ConsumerProject } from './consumer-project.js';
import { CONSUMER_STEPS, consumerScript, expectExit, type StepContext } from './consumer-steps.js';
import { startInstalledGateway } from './installed-gateway.js';
import { startLocalRegistry, type LocalRegistry } from './local-registry.js';
import { publishedManifest, publishedVersions } from './published-manifest.js';
import { runtimeClosure, seedRegistry } from './registry-seed.js';
import { createTempWorkspace, pnpmEnv, type TempWorkspace } from './temp-workspace.js';
import { compileProbe } from './types-probe.js';

const REPO = defaultRoot();
const PACKAGES = publishablePackages(REPO);
const NAMES = new Set(PACKAGES.map((p) => p.name));
const STEP_TIMEOUT_MS = 300_000;
const SCHEMA_STEP = CONSUMER_STEPS.find((s) => s.package === '@mcpproxy/schema')!;

let scratch: string;
let registry: LocalRegistry;
let repo: TempWorkspace;
let npmCache: string;
let firstVersions: Map<string, string>;
let secondVersions: Map<string, string>;
/** The gateway the cli step starts, for the steps after it. */
const stepContext: StepContext = {};
/** Each step's project, pinned to the first versions: the old consumers of the second release. */
const firstProjects = new Map<string, ConsumerProject>();

/** A root script of the temporary copy, run the way a maintainer runs it. */
function pnpmScript(args: readonly string[], timeoutMs = STEP_TIMEOUT_MS): Promise<BoundedResult> {
  return runBounded('npx', ['-y', pnpmSpec(repo.root), ...args], { cwd: repo.root, env: pnpmEnv(cleanEnv()), timeoutMs });
}

function output(result: BoundedResult): string {
  return `exit ${result.status}${result.timedOut ? ' (timed out)' : ''}\n${result.stdout}\n${result.stderr}`;
}

function versionsIn(root: string): Map<string, string> {
  return new Map(publishablePackages(root).map((p) => [p.name, p.version]));
}

function consumer(name: string): ConsumerProject {
  return createConsumerProject(join(scratch, 'consumers', name), registry.url, npmCache);
}

async function expectPublished(versions: ReadonlyMap<string, string>): Promise<void> {
  const workspace: WorkspacePackage[] = publishablePackages(repo.root);
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
  repo = createTempWorkspace(REPO);
  // The registry proxies nothing: the third-party runtime dependencies come from our own install.
  const roots = PACKAGES.map((p) => ({ dir: p.dir, manifest: p.manifest }));
  await seedRegistry(registry.url, runtimeClosure(roots, NAMES));
}, 180_000);

afterAll(async () => {
  killLiveGroups();
  await registry?.stop();
  repo?.dispose();
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe('the registry has nothing but what we put there', () => {
  it('answers 404 for a package nobody published (no uplink to the public registry)', async () => {
    expect(PACKAGES.length).toBeGreaterThan(0);
    expect(await publishedVersions(registry.url, 'left-pad')).toEqual([]);
    expect(await publishedVersions(registry.url, PACKAGES[0]!.name)).toEqual([]);
  });
});

describe('first release', () => {
  // The repository is at (or after) its v1 release commit: `changeset version` has already run
  // there. Running it again versions whatever is pending since (nothing, at the release commit
  // itself) and must leave every package at a version its own changelog names.
  it('versions what is pending since the release commit: each package at a version its changelog names', async () => {
    const result = await pnpmScript(['changeset', 'version']);
    expect(result.status, output(result)).toBe(0);
    firstVersions = versionsIn(repo.root);
    expect(readFileSync(join(repo.root, 'packages', 'schema', 'CHANGELOG.md'), 'utf8')).toMatch(/settings version 1/);
    for (const pkg of publishablePackages(repo.root)) {
      expect(semver.gt(pkg.version, '0.0.0'), `${pkg.name} ${pkg.version} is a released version`).toBe(true);
      expect(readFileSync(join(pkg.dir, 'CHANGELOG.md'), 'utf8'), `${pkg.name} CHANGELOG.md`).toContain(`## ${pkg.version}`);
    }
  });

  it('`pnpm release:dry-run` builds, checks and packs every package but publishes nothing', async () => {
    const result = await pnpmScript(['release:dry-run', '--registry', `${registry.url}/`, '--no-git-checks']);
    expect(result.status, output(result)).toBe(0);
    expect(result.stdout).toContain('checks passed');
    expect(result.stdout).toContain('dry run done');
    for (const name of NAMES) expect(await publishedVersions(registry.url, name), name).toEqual([]);
  });

  it('`pnpm release` builds, checks and publishes every package to the local registry', async () => {
    const result = await pnpmScript(['release', '--registry', `${registry.url}/`, '--no-git-checks']);
    expect(result.status, output(result)).toBe(0);
    expect(result.stdout).toContain('checks passed');
    await expectPublished(firstVersions);
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

describe('a new reason code, the maintainer way', () => {
  let version: number;

  it('release:check fails when only spec/reasons.json gains a code, and says to bump', async () => {
    version = addCodeEntry(repo.root);
    const result = await pnpmScript(['release:check', '--no-build']);
    expect(result.status, output(result)).toBe(1);
    expect(result.stderr).toContain('version_bump_needed');
    expect(result.stderr).toContain(`bump settings_version to ${version}`);
  });

  it('release:check fails when the bump and the frozen copy come without a changeset', async () => {
    bumpAndFreeze(repo.root, version);
    const written = await pnpmScript(['codegen:write']);
    expect(written.status, output(written)).toBe(1);
    const result = await pnpmScript(['release:check', '--no-build']);
    expect(result.status, output(result)).toBe(1);
    expect(result.stderr).toContain('changeset_missing');
    expect(result.stderr).toContain(NEW_CODE);
  });

  it('passes once a minor changeset announces the settings version and names the code', async () => {
    announce(repo.root, version);
    const written = await pnpmScript(['codegen:write']);
    expect(written.status, output(written)).toBe(0);
    // The packages are built (and checked again) by the release below.
    const result = await pnpmScript(['release:check', '--no-build']);
    expect(result.status, output(result)).toBe(0);
  });

  it('versions with changesets (a minor for @mcpproxy/schema whose changelog names the code) and publishes again', async () => {
    const versioned = await pnpmScript(['changeset', 'version']);
    expect(versioned.status, output(versioned)).toBe(0);
    secondVersions = versionsIn(repo.root);
    const before = semver.parse(firstVersions.get('@mcpproxy/schema'))!;
    const after = semver.parse(secondVersions.get('@mcpproxy/schema'))!;
    expect(after.major > before.major || (after.major === before.major && after.minor > before.minor), `${before} -> ${after}`).toBe(true);
    const changelog = readFileSync(join(repo.root, 'packages', 'schema', 'CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(`settings version ${version}`);
    expect(changelog).toContain(NEW_CODE);
    const result = await pnpmScript(['release', '--registry', `${registry.url}/`, '--no-git-checks']);
    expect(result.status, output(result)).toBe(0);
    await expectPublished(secondVersions);
  });
});

describe('across the two versions', () => {
  let oldProject: ConsumerProject;
  let newProject: ConsumerProject;
  let newReport: Record<string, unknown>;

  it('the new packages expose the code in constants, validators, OpenAPI and fixtures', async () => {
    newProject = consumer('new-schema');
    const installed = await newProject.install(`@mcpproxy/schema@${secondVersions.get('@mcpproxy/schema')}`);
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

  it('the new package types know the code (and its retryable value); the old ones do not', async () => {
    const compiled = compileProbe(newProject.dir, NEW_CODE);
    expect(compiled.output).toBe('');
    oldProject = consumer('old-pinned');
    const installed = await oldProject.install(
      `@mcpproxy/schema@${firstVersions.get('@mcpproxy/schema')}`,
      `@mcpproxy/evaluator@${firstVersions.get('@mcpproxy/evaluator')}`,
    );
    expect(installed.status, output(installed)).toBe(0);
    const old = compileProbe(oldProject.dir, NEW_CODE);
    expect(old.ok).toBe(false);
    expect(old.output).toContain(NEW_CODE);
  });

  it('a consumer pinned to the old versions keeps working after the new release', async () => {
    // A fresh install of the pinned project (as its CI would do) stays on the old versions.
    const reinstalled = await oldProject.install();
    expect(reinstalled.status, output(reinstalled)).toBe(0);
    expect(oldProject.installedVersion('@mcpproxy/schema')).toBe(firstVersions.get('@mcpproxy/schema'));
    expect(oldProject.installedVersion('@mcpproxy/evaluator')).toBe(firstVersions.get('@mcpproxy/evaluator'));
    const report = await oldProject.runScript(SCHEMA_STEP.script);
    SCHEMA_STEP.verify(report);
    expect(report['settings_version']).toBe((newReport['settings_version'] as number) - 1);
  });

  it('the old consumer reads the new code from a new producer as blocked, permanent and non-retryable, without throwing', async () => {
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

  describe('a producer of the new code, built from the new packages, and the old cli and client', () => {
    const LATER_ID = 'demo:later';
    let producer: RunningService;
    let origin: string;

    /** The step's project from the first release, installed again from its pins (as its CI would). */
    async function pinned(name: string): Promise<ConsumerProject> {
      const project = firstProjects.get(name);
      expect(project, `the ${name} step ran`).toBeDefined();
      const reinstalled = await project!.install();
      expect(reinstalled.status, output(reinstalled)).toBe(0);
      expect(project!.installedVersion(name)).toBe(firstVersions.get(name));
      return project!;
    }

    it('starts: REST answers validated by the new strict schema, MCP through the new RequiredToolsExtension', async () => {
      const project = consumer('new-producer');
      const server = PACKAGES.find((p) => p.name === '@mcpproxy/server')!;
      const sdk = (server.manifest['dependencies'] ?? {}) as Record<string, string>;
      const installed = await project.install(
        `@mcpproxy/server@${secondVersions.get('@mcpproxy/server')}`,
        ...['@modelcontextprotocol/server', '@modelcontextprotocol/node'].map((name) => `${name}@${sdk[name]}`),
      );
      expect(installed.status, output(installed)).toBe(0);
      expect(project.installedVersion('@mcpproxy/schema')).toBe(secondVersions.get('@mcpproxy/schema'));
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

    it('the old cli exits 11 (blocked) and prints the code, without crashing', async () => {
      const project = await pinned('@mcpproxy/cli');
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

    it("the old client's preflight reports the tool unavailable: unknown code, permanent, non-retryable, blocked, not thrown", async () => {
      const project = await pinned('@mcpproxy/client');
      const report = await project.runScript(consumerScript('client-preflight.mjs'), [origin, 'demo:echo', LATER_ID]);
      // A settings-version bump only adds codes: the new extension still serves the old client's
      // version-1 mirror, and the old client reads the version-2 answer in band, leniently.
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

    it('stops the producer, its whole process group', async () => {
      await producer.stop();
      expect(groupAlive(producer.pid)).toBe(false);
    });
  });

  it('a consumer of the new version reads every answer of the old one (the old fixtures, strictly)', async () => {
    const oldFixtures = join(oldProject.dir, 'node_modules', '@mcpproxy', 'schema', 'fixtures');
    const report = await newProject.runScript(SCHEMA_STEP.script, [oldFixtures]);
    expect(report['fixtures_settings_version']).toBe((newReport['settings_version'] as number) - 1);
    // Valid answers stay valid (codes are never removed); the old invalid set is version-bound
    // (a settings version of 2 was invalid then), so only the valid ones carry over.
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
