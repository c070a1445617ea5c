// The no-skew invariant as a model-based test over the real gateway (fast-check commands): random
// sequences of operator actions (quarantine, server and tool enable/disable, approvals), upstream
// tool-list changes (add, remove, redefine, also as a malformed definition; the tools file rewritten + SIGHUP), upstream restarts,
// kills and hung starts. After every step, once the published state has settled, each tool's
// verdict is the same on REST (agent tier) and on the rider of both revisions, and it is `ready`
// exactly when a real tools/call on either revision reaches the upstream: its echo comes back, and
// the upstream's own message counter grew by exactly the number of echoed calls.
//
// CI runs a fixed budget (steps whose precondition fails are skipped); NOSKEW_RUNS and NOSKEW_STEPS raise it (NOSKEW_RUNS=50 NOSKEW_STEPS=40 is
// about 2,000 steps). FC_SEED (and FC_PATH) replay a run; NOSKEW_SHRINK=1 shrinks a failure
// (slow: every shrink step starts a fresh gateway).
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { MALFORMED, NoSkewWorld, SERVER, type Listing, type Observation } from './no-skew-world.js';

const TOOLS = ['a', 'b', 'c', 'd'] as const;
const IDS = TOOLS.map((tool) => `${SERVER}:${tool}`);
const INITIAL: Listing = new Map([
  ['a', 1],
  ['b', 1],
]);
const RUNS = Number(process.env['NOSKEW_RUNS'] ?? '2');
const STEPS = Number(process.env['NOSKEW_STEPS'] ?? '20');
const SEED = process.env['FC_SEED'] === undefined || process.env['FC_SEED'] === '' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env['FC_SEED']);

interface Model {
  listing: Listing;
  enabled: boolean;
  hung: boolean;
}

type Command = fc.AsyncCommand<Model, NoSkewWorld>;

let stepsRun = 0;

/** The invariant, checked once the state the model describes has been published. */
async function settledInvariant(model: Model, world: NoSkewWorld, after: string): Promise<void> {
  await world.settle(model);
  const seen = await world.observe(IDS);
  stepsRun += 1;
  const problems = disagreements(seen);
  if (problems.length > 0) {
    const listing = JSON.stringify([...model.listing]);
    throw new Error(`no-skew broken after ${after} (server ${seen.state}, model listing ${listing}, enabled ${model.enabled}, hung ${model.hung}):\n${problems.join('\n')}`);
  }
}

function disagreements(seen: Observation): string[] {
  const problems: string[] = [];
  for (const id of IDS) {
    const verdicts = seen.verdicts[id] ?? {};
    const values = new Set(Object.values(verdicts));
    if (values.size !== 1) problems.push(`${id}: the surfaces disagree: ${JSON.stringify(verdicts)}`);
    const ready = verdicts['rest_agent'] === 'ready';
    for (const [era, reached] of Object.entries(seen.reached[id] ?? {})) {
      if (reached !== ready) problems.push(`${id}: the verdict is ${verdicts['rest_agent']} but the ${era} tools/call ${reached ? 'reached' : 'did not reach'} the upstream`);
    }
  }
  if (seen.upstreamMessages !== seen.echoedCalls) {
    problems.push(`the upstream received ${seen.upstreamMessages} messages during ${seen.echoedCalls} echoed calls: a refused call reached it, or an echo came from elsewhere`);
  }
  return problems;
}

/** One step: act on the world and the model, then check the invariant. */
function step(name: string, can: (model: Model) => boolean, act: (model: Model, world: NoSkewWorld) => Promise<void> | void): Command {
  return {
    check: can,
    run: async (model, world) => {
      await act(model, world);
      await settledInvariant(model, world, name);
    },
    toString: () => name,
  };
}

const upstreamRunning = (model: Model): boolean => model.enabled && !model.hung;
const always = (): boolean => true;

function changeListing(model: Model, world: NoSkewWorld, listing: Map<string, number>): void {
  model.listing = listing;
  world.writeListing(listing, upstreamRunning(model));
}

const tool = fc.constantFrom(...TOOLS);
// Weighted towards tool-list changes and approvals, where the gates meet the listing; restarts,
// kills and hung starts spawn processes and cost the most time per step.
const commands: (readonly [number, fc.Arbitrary<Command>])[] = [
  [1, fc.boolean().map((on) => step(on ? 'quarantine' : 'unquarantine', always, async (_m, w) => void (await w.rest('POST', `/servers/${SERVER}/${on ? 'quarantine' : 'unquarantine'}`))))],
  [1, fc.boolean().map((on) =>
    step(on ? 'enable server' : 'disable server', always, async (m, w) => {
      await w.rest('POST', `/servers/${SERVER}/${on ? 'enable' : 'disable'}`);
      m.enabled = on;
    }),
  )],
  [2, fc.tuple(tool, fc.boolean()).map(([name, on]) => step(`${on ? 'enable' : 'disable'} tool ${name}`, always, async (_m, w) => void (await w.rest('POST', `/tools/${SERVER}:${name}/${on ? 'enable' : 'disable'}`))))],
  [2, tool.map((name) => step(`approve ${name}`, always, async (_m, w) => void (await w.rest('POST', '/tools/approve', { ids: [`${SERVER}:${name}`] }))))],
  [1, fc.constant(step('approve all pending', always, async (_m, w) => void (await w.rest('POST', '/tools/approve', { server: SERVER, all_pending: true }))))],
  [3, tool.map((name) => step(`upstream adds ${name}`, (m) => !m.listing.has(name), (m, w) => changeListing(m, w, new Map(m.listing).set(name, 1))))],
  [3, tool.map((name) =>
    step(`upstream removes ${name}`, (m) => m.listing.has(name), (m, w) => {
      const listing = new Map(m.listing);
      listing.delete(name);
      changeListing(m, w, listing);
    }),
  )],
  [2, fc.tuple(tool, fc.integer({ min: MALFORMED, max: 3 })).map(([name, version]) =>
    step(version === MALFORMED ? `upstream redefines ${name} as malformed (inputSchema: null)` : `upstream redefines ${name} as v${version}`, (m) => m.listing.has(name) && m.listing.get(name) !== version, (m, w) => changeListing(m, w, new Map(m.listing).set(name, version))),
  )],
  [1, fc.constant(step('restart server', always, async (_m, w) => void (await w.rest('POST', `/servers/${SERVER}/restart`))))],
  [1, fc.constant(step('upstream killed (reconnects)', upstreamRunning, (_m, w) => w.kill()))],
  [1, fc.constant(
    step('upstream killed, its next start hangs', upstreamRunning, async (m, w) => {
      w.setHungStart(true);
      m.hung = true;
      await w.kill();
    }),
  )],
  [2, fc.constant(
    step('upstream starts normally again (restart)', (m) => m.hung, async (m, w) => {
      w.setHungStart(false);
      m.hung = false;
      if (m.enabled) await w.rest('POST', `/servers/${SERVER}/restart`);
    }),
  )],
];

afterAll(() => {
  console.log(`no-skew model: seed ${SEED}, ${stepsRun} steps checked (runs ${RUNS}, up to ${STEPS} steps each)`);
});

it(
  'a verdict is ready exactly when a tools/call reaches the upstream, on every surface and revision',
  async () => {
    console.log(`no-skew model: seed ${SEED} (replay: FC_SEED=${SEED})`);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(...commands.map(([weight, arbitrary]) => ({ weight, arbitrary }))), { minLength: STEPS, maxLength: STEPS }), async (sequence) => {
        const world = await NoSkewWorld.start(INITIAL);
        try {
          const model: Model = { listing: INITIAL, enabled: true, hung: false };
          await settledInvariant(model, world, 'start');
          await fc.asyncModelRun(() => ({ model, real: world }), sequence);
        } finally {
          await world.close();
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: process.env['NOSKEW_SHRINK'] !== '1' },
    );
    expect(stepsRun).toBeGreaterThan(0);
  },
  // Bounded by the step budget: a few hundred ms per step on a loaded machine, a fresh gateway per run.
  Math.max(90_000, RUNS * STEPS * 3_000),
);
