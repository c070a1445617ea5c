// Decision record 0002 (docs/decisions/0002-malformed-rider-severity.md): a mixed-version fleet
// against a gateway that answers a malformed rider with -32602 (today, the default) and one that
// also serves the error_facet prototype. The fleet, on both revisions: a v1 client (a well-formed
// rider), a client that sends a rider the gateway cannot read (a member of a later version) and
// asks for error facets, the same client without asking, and a v1 client that sends no rider. Each
// client wants its tool listing and, when it sent a rider, a verdict or a reason why not; a client
// whose listing failed lists again without the rider (the fallback the payload spec leaves it).
// What is counted: the requests each client needs to get its listing, whether it learnt why its
// check failed, and whether anything else changed for anyone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkValue, EXTENSION_ID, strictValidators } from '@mcpproxy/schema';
import { ERAS, fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type Era, type TestGateway } from './gateway-harness.js';
import { negotiating, withRawSession, type RawAnswer } from './raw-mcp-session.js';
import { ADMIN_KEY, withoutVolatile } from './rest-client.js';

const TOOLS = 12;
const WELL_FORMED = { tools: [{ id: 'fleet:t0' }, { id: 'fleet:missing' }] };
/** What a client of a later settings version might send: a member this gateway does not know. */
const UNREADABLE = { tools: [{ id: 'fleet:t0' }], budget_ms: 250 };

interface Member {
  readonly name: string;
  readonly settings: Record<string, unknown>;
  readonly rider?: unknown;
}

const FLEET: readonly Member[] = [
  { name: 'v1 client, well-formed rider', settings: { version: 1 }, rider: WELL_FORMED },
  { name: 'unreadable rider, asks for error facets', settings: { version: 1, experimental: { error_facet: true } }, rider: UNREADABLE },
  { name: 'unreadable rider, does not ask', settings: { version: 1 }, rider: UNREADABLE },
  { name: 'v1 client, no rider', settings: { version: 1 } },
];

/** One client's run: what it needed and what it got. */
interface Outcome {
  readonly requests: number;
  readonly tools: number;
  /** 'verdict' | 'error facet' | 'JSON-RPC error' | 'none' */
  readonly check: string;
  /** The fault it was told (data.code), when its rider was refused. */
  readonly fault?: string;
  /** The answers, volatile fields removed, to compare gateways byte for byte. */
  readonly answers: readonly string[];
}

async function run(gw: TestGateway, era: Era, member: Member): Promise<Outcome> {
  return withRawSession(gw.url, era, { capabilities: negotiating(era, member.settings) }, async (session) => {
    const answers: RawAnswer[] = [await session.request('tools/list', member.rider === undefined ? {} : { _meta: { [EXTENSION_ID]: member.rider } })];
    if (answers[0]!.error !== undefined) answers.push(await session.request('tools/list', {}));
    const last = answers[answers.length - 1]!;
    const facet = answers[0]!.result?._meta?.[EXTENSION_ID] as Record<string, unknown> | undefined;
    let check = 'none';
    let fault: string | undefined;
    if (answers[0]!.error !== undefined) {
      check = 'JSON-RPC error';
      fault = (answers[0]!.error.data as { code?: string } | undefined)?.code;
    } else if (facet !== undefined && Object.hasOwn(facet, 'error')) {
      expect(checkValue(strictValidators.ErrorFacet, facet).ok, JSON.stringify(facet)).toBe(true);
      check = 'error facet';
      fault = (facet['error'] as { data: { code: string } }).data.code;
    } else if (facet !== undefined) {
      expect(checkValue(strictValidators.ResponseFacet, facet).ok).toBe(true);
      check = 'verdict';
    }
    return {
      requests: answers.length,
      tools: (last.result?.tools as unknown[] | undefined)?.length ?? 0,
      check,
      ...(fault === undefined ? {} : { fault }),
      answers: answers.map((answer) => stable(answer)),
    };
  });
}

/** The answer without what differs between two runs of the same request (request ids, timestamps). */
function stable(answer: RawAnswer): string {
  if (answer.error !== undefined) return JSON.stringify(answer.error);
  const { _meta, ...rest } = answer.result as { _meta?: Record<string, unknown> };
  const facet = _meta?.[EXTENSION_ID];
  return JSON.stringify({ ...rest, facet: facet === undefined ? undefined : withoutVolatile(JSON.stringify(facet)) });
}

let dir: TempDir;
let otherDir: TempDir;
let today: TestGateway;
let prototype: TestGateway;

beforeAll(async () => {
  dir = new TempDir();
  otherDir = new TempDir(); // each gateway owns its data directory
  const tools = dir.tools('fleet', Array.from({ length: TOOLS }, (_, i) => ({ name: `t${i}`, echo: true })));
  const config = (experiments: string[]) => ({ api_key: ADMIN_KEY, extension_experiments: experiments, servers: [fixtureServer('fleet', tools)] });
  today = await startTestGateway(dir, config([]));
  prototype = await startTestGateway(otherDir, config(['error_facet']));
  await Promise.all([today, prototype].map((gw) => waitForState(gw.gateway, serverReady('fleet'))));
});

afterAll(async () => {
  await today?.close();
  await prototype?.close();
  dir?.remove();
  otherDir?.remove();
});

describe.each(ERAS)('the mixed-version fleet on %s', (era) => {
  it('today (-32602): the client with the unreadable rider needs a second request for its listing; with the prototype it asked for, one, and it reads the same fault', async () => {
    const table: Record<string, { today: Outcome; prototype: Outcome }> = {};
    for (const member of FLEET) table[member.name] = { today: await run(today, era, member), prototype: await run(prototype, era, member) };
    const summary = Object.fromEntries(Object.entries(table).map(([name, { today: t, prototype: p }]) => [name, [t.requests, t.check, t.fault, p.requests, p.check, p.fault]]));
    const total = TOOLS + 1; // describe_tool
    expect(summary).toEqual({
      'v1 client, well-formed rider': [1, 'verdict', undefined, 1, 'verdict', undefined],
      'unreadable rider, asks for error facets': [2, 'JSON-RPC error', 'invalid_request', 1, 'error facet', 'invalid_request'],
      'unreadable rider, does not ask': [2, 'JSON-RPC error', 'invalid_request', 2, 'JSON-RPC error', 'invalid_request'],
      'v1 client, no rider': [1, 'none', undefined, 1, 'none', undefined],
    });
    for (const { today: t, prototype: p } of Object.values(table)) expect([t.tools, p.tools]).toEqual([total, total]);
    // Nobody who did not ask sees anything new: the same answers from both gateways.
    for (const name of ['v1 client, well-formed rider', 'unreadable rider, does not ask', 'v1 client, no rider']) {
      expect(table[name]!.prototype.answers, name).toEqual(table[name]!.today.answers);
    }
    // The error facet is the very error the carrier call fails with today, and the listing beside it is the plain one.
    const asked = table['unreadable rider, asks for error facets']!;
    expect(JSON.parse(asked.prototype.answers[0]!).facet).toBe(JSON.stringify({ error: JSON.parse(asked.today.answers[0]!) }));
    expect(JSON.parse(asked.prototype.answers[0]!).tools).toEqual(JSON.parse(asked.today.answers[1]!).tools);
  });
});
