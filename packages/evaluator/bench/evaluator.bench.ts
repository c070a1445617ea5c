// Benchmark of @mcpproxy/evaluator (not a test: nothing here asserts a time).
// Snapshot: 100 servers x 100 tools, full names of near-uniform length (srvNN:tool_xxxxxxx).
// Run: npx nx run @mcpproxy/evaluator:bench
import { availableParallelism, cpus, loadavg } from 'node:os';
import { REASON_CODES } from '@mcpproxy/schema';
import {
  evaluate,
  prepareSnapshot,
  type ApprovalRecord,
  type EvaluationContext,
  type GatewaySnapshot,
  type IndexedTool,
  type PreflightRequest,
  type ServerConnection,
  type ServerSnapshot,
} from '../src/index.js';
import { reportTarget } from './bench-target.js';

// Deterministic pseudo-random names (mulberry32), so every run measures the same snapshot.
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(20260728);
const letters = 'abcdefghijklmnopqrstuvwxyz';
const word = (length: number): string => Array.from({ length }, () => letters[Math.floor(random() * letters.length)]).join('');
const hash = (n: number): string => `sha256/v1:${n.toString(16).padStart(64, '0')}`;

const SERVERS = 100;
const TOOLS = 100;
const serverName = (s: number): string => `srv${s}`;
const toolNames: string[][] = Array.from({ length: SERVERS }, () => {
  const names = new Set<string>();
  while (names.size < TOOLS) names.add(`tool_${word(7)}`);
  return [...names];
});

// The last ten servers carry one unhappy state each, for the mixed case.
const SPECIAL = { quarantined: 90, disabled: 91, login: 92, unhealthy: 93, starting: 94, allowList: 95, approvals: 96, saturated: 97, outOfScope: 99 };

/** With `special`, servers 90-99 carry the unhappy states of the mixed case; without, all 10,000 tools are servable. */
function buildSnapshot(special: boolean): GatewaySnapshot {
  const map = new Map<string, ServerSnapshot>();
  for (let s = 0; s < SERVERS; s += 1) {
    const name = serverName(s);
    const state = special ? s : -1;
    const indexed = new Map<string, IndexedTool>();
    for (let t = 0; t < TOOLS; t += 1) {
      const toolName = toolNames[s]![t]!;
      // Annotations: mostly read-only; every 10th tool lacks them, every 10th is read-write.
      const annotations = t % 10 === 7 ? undefined : { readOnlyHint: t % 10 !== 8, openWorldHint: false };
      indexed.set(toolName, annotations === undefined ? { name: toolName, hash: hash(s * 1000 + t) } : { name: toolName, hash: hash(s * 1000 + t), annotations });
    }
    const toolList = [...indexed.keys()];
    const approvals = new Map<string, ApprovalRecord>();
    if (state === SPECIAL.approvals) {
      const record = (tool: string, fields: Partial<ApprovalRecord>): void => {
        approvals.set(tool, { tool, status: 'approved', hash_schema_version: 1, user_disabled: false, ...fields });
      };
      record(toolList[0]!, { user_disabled: true });
      record(toolList[1]!, { status: 'changed' });
      record(toolList[2]!, { status: 'pending' });
    }
    const connection: ServerConnection =
      state === SPECIAL.login ? { state: 'pending_auth', ever_ready: true }
      : state === SPECIAL.unhealthy ? { state: 'error', last_error: 'connection refused', diagnostic_action: 'restart', ever_ready: true }
      : state === SPECIAL.starting ? { state: 'connecting', ever_ready: false }
      : state === SPECIAL.saturated ? { state: 'ready', ever_ready: true, saturation: { signal: 'HTTP 429', retry_after_s: 30 } }
      : { state: 'ready', ever_ready: true };
    map.set(name, {
      name,
      enabled: state !== SPECIAL.disabled,
      quarantined: state === SPECIAL.quarantined,
      connection,
      tools: indexed,
      approvals,
      enabled_tools: state === SPECIAL.allowList ? toolList.slice(0, 50) : [],
      disabled_tools: [],
      auto_approve_tool_changes: false,
    });
  }
  return { version: 1, tool_quarantine: true, servers: map, profiles: new Map() };
}

const snapshot = buildSnapshot(true);
const prepared = prepareSnapshot(snapshot);
const plainSnapshot = buildSnapshot(false);
const name = (s: number, t: number): string => `${serverName(s)}:${toolNames[s]![t]!}`;
const agent: EvaluationContext = { tier: 'agent', scope: { allowed_servers: '*' } };
const operator: EvaluationContext = {
  tier: 'operator',
  scope: { allowed_servers: [...snapshot.servers.keys()].filter((server) => server !== serverName(SPECIAL.outOfScope)) },
};

// Case 1: 10 ready IDs on ten ordinary servers.
const ready: PreflightRequest = { tools: Array.from({ length: 10 }, (_, k) => ({ id: name(k * 7, k * 9) })) };

// Case 2: 50 IDs, every emittable code at least once (operator tier, read_only_only policy).
const mixedIds: { id: string; pin?: string }[] = [
  { id: name(1, 0) }, { id: name(2, 1) },
  { id: 'nosuch:tool_abc' }, { id: name(SPECIAL.outOfScope, 0) },
  { id: name(SPECIAL.quarantined, 0) }, { id: name(SPECIAL.disabled, 0) },
  { id: `${serverName(3)}:tool_nothere` }, { id: 'malformed-id' },
  { id: name(SPECIAL.allowList, 60) },
  { id: name(SPECIAL.approvals, 0) }, { id: name(SPECIAL.approvals, 1) }, { id: name(SPECIAL.approvals, 2) },
  { id: name(4, 0), pin: hash(1) }, { id: name(5, 0), pin: 'sha256/v2:00' },
  { id: name(SPECIAL.login, 0) }, { id: name(SPECIAL.unhealthy, 0) }, { id: name(SPECIAL.starting, 0) }, { id: name(SPECIAL.saturated, 0) },
  { id: name(6, 7) }, { id: name(6, 8) },
];
for (let k = 0; mixedIds.length < 50; k += 1) mixedIds.push({ id: name(10 + k, k % 10 === 7 || k % 10 === 8 ? 0 : k) });
const mixed: PreflightRequest = { tools: mixedIds, policy: { read_only_only: true } };

// Case 3: 50 not_found IDs built to defeat naive pruning: short prefixes of many names, and
// typos at Levenshtein distance exactly 1 and 2 of real names (substitution, deletion, insertion,
// adjacent transposition; in the tool part and in the server part).
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
function typoOnce(text: string, edits: number, seed: number): string {
  const pick = generator(seed);
  let out = text;
  for (let e = 0; e < edits; e += 1) {
    const at = 6 + Math.floor(pick() * (out.length - 7));
    const kind = Math.floor(pick() * (edits - e >= 2 ? 4 : 3));
    const char = letters[Math.floor(pick() * 26)]!;
    if (kind === 0) out = out.slice(0, at) + char + out.slice(at + 1);
    else if (kind === 1) out = out.slice(0, at) + out.slice(at + 1);
    else if (kind === 2) out = out.slice(0, at) + char + out.slice(at);
    else {
      out = out.slice(0, at) + (out[at + 1] ?? '') + (out[at] ?? '') + out.slice(at + 2);
      e += 1;
    }
  }
  return out;
}
function typo(text: string, edits: number, seed: number): string {
  for (let attempt = seed; ; attempt += 1000) {
    const out = typoOnce(text, edits, attempt);
    if (distance(out, text) === edits) return out;
  }
}
const adversarialIds: string[] = [
  'srv1:t', 'srv2:t', 'srv3:to', 'srv10:to', 'srv11:too', 'srv12:tool', 'srv13:tool_', 'srv20:tool_', 'srv30:t', 'srv40:tool',
  ...Array.from({ length: 15 }, (_, k) => typo(name(k * 3, k * 5), 1, k + 1)),
  ...Array.from({ length: 15 }, (_, k) => typo(name(k * 3 + 1, k * 5 + 2), 2, k + 100)),
  ...Array.from({ length: 3 }, (_, k) => `sr${k + 1}:${toolNames[k + 1]![k]!}`),
  ...Array.from({ length: 2 }, (_, k) => `svr${k + 21}:${toolNames[k + 21]![k]!}`),
  ...Array.from({ length: 5 }, (_, k) => `srv${k + 2}:${toolNames[k + 2]![k]!.slice(0, 9)}`),
];
const adversarial: PreflightRequest = { tools: adversarialIds.map((id) => ({ id })) };

// Sanity (not timing): the cases are what they claim to be.
const codes = (request: PreflightRequest, context: EvaluationContext): string[] => evaluate(prepared, request, context).tools.map((t) => t.reason ?? 'ready');
if (!codes(ready, agent).every((code) => code === 'ready')) throw new Error('ready case is not all ready');
const mixedCodes = new Set(codes(mixed, operator));
const missing = REASON_CODES.filter((code) => !mixedCodes.has(code));
if (missing.length > 0 || !mixedCodes.has('ready')) throw new Error(`mixed case misses ${missing.join(', ')}`);
const adversarialResults = evaluate(prepared, adversarial, agent).tools;
if (adversarialIds.length !== 50 || !adversarialResults.every((t) => t.reason === 'not_found')) {
  throw new Error(`adversarial case is not 50 not_found: ${JSON.stringify(adversarialResults.filter((t) => t.reason !== 'not_found'))}`);
}
if (!adversarialResults.slice(10).every((t) => (t.did_you_mean ?? []).length > 0)) throw new Error('a typo got no suggestion');
const suggested = adversarialResults.filter((t) => (t.did_you_mean ?? []).length > 0).length;

interface Figures { median: number; p99: number; iterations: number }

function measure(run: () => unknown, warmup: number, iterations: number): Figures {
  for (let k = 0; k < warmup; k += 1) run();
  const samples = new Float64Array(iterations);
  for (let k = 0; k < iterations; k += 1) {
    const start = process.hrtime.bigint();
    run();
    samples[k] = Number(process.hrtime.bigint() - start);
  }
  samples.sort();
  const at = (q: number): number => samples[Math.min(iterations - 1, Math.floor(q * iterations))]!;
  return { median: at(0.5), p99: at(0.99), iterations };
}

const micro = (ns: number): string => `${(ns / 1000).toFixed(1)} µs`;
const milli = (ns: number): string => `${(ns / 1e6).toFixed(2)} ms`;

const loadBefore = loadavg()[0] ?? 0;
interface Case {
  readonly label: string;
  readonly figures: Figures;
  readonly unit: (ns: number) => string;
  /** The target, when the case has one: its id, its wording, and whether these figures meet it. */
  readonly target?: { readonly id: string; readonly text: string; readonly met: (f: Figures) => boolean; readonly figure: (f: Figures) => string };
}
const cases: Case[] = [
  {
    label: '10 ready IDs (agent tier)',
    figures: measure(() => evaluate(prepared, ready, agent), 20_000, 100_000),
    unit: micro,
    target: { id: 'evaluator-10-ready', text: 'median < 20 µs', met: (f) => f.median < 20_000, figure: (f) => `${micro(f.median)} median (p99 ${micro(f.p99)})` },
  },
  { label: '50 mixed IDs, every emittable code (operator tier)', figures: measure(() => evaluate(prepared, mixed, operator), 5_000, 20_000), unit: micro },
  {
    label: '50 adversarial not_found IDs (agent tier)',
    figures: measure(() => evaluate(prepared, adversarial, agent), 5_000, 20_000),
    unit: micro,
    target: { id: 'evaluator-50-not-found-p99', text: 'p99 < 1 ms', met: (f) => f.p99 < 1e6, figure: (f) => `${micro(f.p99)} p99 (median ${micro(f.median)})` },
  },
  {
    label: 'prepareSnapshot, 10,000 names (suggestion index build)',
    figures: measure(() => prepareSnapshot(plainSnapshot), 20, 200),
    unit: milli,
    target: { id: 'evaluator-index-build', text: 'median < 50 ms', met: (f) => f.median < 50e6, figure: (f) => `${milli(f.median)} median (p99 ${milli(f.p99)})` },
  },
];

console.log(`machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown cpu'}), node ${process.version}`);
// Other work on the machine shows up in p99 (a preempted iteration), so say how busy it was.
console.log(`1-minute load average: ${loadBefore.toFixed(2)} before, ${(loadavg()[0] ?? 0).toFixed(2)} after`);
console.log(`adversarial case: ${suggested} of 50 ids get did_you_mean suggestions`);
const index = prepareSnapshot(plainSnapshot).suggestions;
if (index.names.length !== SERVERS * TOOLS) throw new Error(`the build case indexes ${index.names.length} names`);
const indexBytes = [index.points, index.starts, index.sorted, index.groupStarts, index.lengths, index.bucketStarts, index.variantHashes, index.variantNames]
  .reduce((sum, array) => sum + array.byteLength, 0);
console.log(`suggestion index: ${index.names.length} names, ${index.variantHashes.length} variant hashes, ${(indexBytes / 2 ** 20).toFixed(1)} MiB of typed arrays`);
console.log('| case | median | p99 | iterations | target |');
console.log('|---|---|---|---|---|');
for (const { label, figures, unit, target } of cases) {
  console.log(`| ${label} | ${unit(figures.median)} | ${unit(figures.p99)} | ${figures.iterations} | ${target?.text ?? '-'} |`);
}
const snapshotSetup = '100 servers x 100 tools (srvNN:tool_ + 7 random letters), one process, no I/O';
for (const { label, figures, target } of cases) {
  if (target === undefined) continue;
  reportTarget({ id: target.id, measure: `evaluator: ${label}, ${figures.iterations.toLocaleString("en-US")} iterations; ${snapshotSetup}`, figure: target.figure(figures), target: target.text, met: target.met(figures) });
}
