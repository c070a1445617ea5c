import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCodegen } from '../src/run-codegen.js';
import { createTempRepo, REAL_ROOT, type TempRepo } from './temp-repo.js';

describe('drift check', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = createTempRepo();
  });
  afterEach(() => repo.dispose());

  it('passes on the real tree', async () => {
    const outcome = await runCodegen(REAL_ROOT, false);
    expect(outcome.problems).toEqual([]);
  });

  it('fails on a hand-edited generated file, naming it and the command, and --write repairs it', async () => {
    const path = 'packages/schema/src/generated/registry.ts';
    repo.write(path, repo.read(path).replace('MAX_TOOLS = 50', 'MAX_TOOLS = 51'));
    const outcome = await runCodegen(repo.root, false);
    expect(outcome.problems).toEqual([
      { code: 'drift', message: `${path}: differs from what spec/ generates; run: pnpm codegen:write` },
    ]);
    const written = await runCodegen(repo.root, true);
    expect(written.written).toEqual([path]);
    expect((await runCodegen(repo.root, false)).problems).toEqual([]);
  });

  it('fails on a missing generated file and on a stale one in a generated folder', async () => {
    repo.remove('packages/schema/src/generated/types.ts');
    repo.write('packages/schema/fixtures/left-over.json', '{}\n');
    const messages = (await runCodegen(repo.root, false)).problems.map((p) => p.message);
    expect(messages).toContain('packages/schema/src/generated/types.ts: is missing; run: pnpm codegen:write');
    expect(messages).toContain('packages/schema/fixtures/left-over.json: is no longer generated; run: pnpm codegen:write');
    await runCodegen(repo.root, true);
    expect((await runCodegen(repo.root, false)).problems).toEqual([]);
  });

  it('follows a spec change: the schema cap moves into the registry constants', async () => {
    const schema = repo.readJson<{ $defs: Record<string, { properties: Record<string, Record<string, unknown>> }> }>(
      'spec/required-tools.schema.json',
    );
    schema.$defs['RestPreflightRequest']!.properties['tools']!['maxItems'] = 120;
    schema.$defs['RestPreflightResponseShape']!.properties['tools']!['maxItems'] = 120;
    repo.writeJson('spec/required-tools.schema.json', schema);
    expect((await runCodegen(repo.root, false)).problems.map((p) => p.code)).toContain('drift');
    await runCodegen(repo.root, true);
    expect(repo.read('packages/schema/src/generated/registry.ts')).toContain('export const REST_MAX_TOOLS = 120 as const;');
  });
});

describe('without spec/config.schema.json', () => {
  it('still generates, and drops the config types and validators', async () => {
    const repo = createTempRepo();
    try {
      repo.remove('spec/config.schema.json');
      expect((await runCodegen(repo.root, false)).problems.map((p) => p.code)).toContain('drift');
      expect((await runCodegen(repo.root, true)).problems).toEqual([]);
      expect((await runCodegen(repo.root, false)).problems).toEqual([]);
      expect(repo.read('packages/schema/src/generated/types.ts')).not.toContain('GatewayConfig');
      expect(repo.read('packages/schema/src/generated/validators.js')).not.toContain('GatewayConfig');
      expect(repo.read('packages/schema/src/generated/types.ts')).toContain('export type ToolVerdict = ');
    } finally {
      repo.dispose();
    }
  });
});
