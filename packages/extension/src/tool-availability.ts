import { toolIdKey, type ToolUnavailability } from '@mcpproxy/evaluator';
import { REASONS, RIDER_REASON_CODES, SETTINGS_VERSION, type ReasonCode } from '@mcpproxy/schema';
import type { ServerContext } from '@modelcontextprotocol/server';

/**
 * What a server says about one of its tools: `undefined` (or null) when it is usable as far as the
 * server knows, else why not. A tool the server lists and says nothing about is usable.
 */
export type ToolAvailability = ToolUnavailability | undefined | null;

/** One read of the server's state: why any tool is unavailable, by tool name. */
export type ToolStateSnapshot = ReadonlyMap<string, ToolAvailability> | Readonly<Record<string, ToolAvailability>>;

/** Reads the whole state once per check, so every tool of one answer comes from the same moment. */
export type ToolStateReader = (ctx: ServerContext) => ToolStateSnapshot | Promise<ToolStateSnapshot>;

/** One callback per tool name, asked only about the tools a check names. */
export type ToolAvailabilityCallbacks = Readonly<Record<string, (ctx: ServerContext) => ToolAvailability | Promise<ToolAvailability>>>;

/** The author described a tool's state in a way no verdict can carry: no verdict (-32603), the message says which tool and why. */
export class InvalidToolState extends Error {}

/**
 * Codes the server's author may give. The rest of the rider's codes the extension decides itself:
 * not_found from the listing, missing_annotation and policy_filtered from the listed annotations and
 * the request's policy. The operator-tier and pin codes never appear in band.
 */
const AUTHOR_CODES: ReadonlySet<string> = new Set<string>(RIDER_REASON_CODES.filter((code) => code !== 'not_found' && code !== 'missing_annotation' && code !== 'policy_filtered'));
const MEMBERS: ReadonlySet<string> = new Set(['reason', 'action', 'detail', 'remediation']);
/** The wire's Text limit, in code points. */
const TEXT_MAX = 2048;

/** The availability of tool `name` as the author gave it, checked: undefined when usable. */
export function checkedAvailability(name: string, value: unknown): ToolUnavailability | undefined {
  if (value === undefined || value === null) return undefined;
  const fault = (what: string) => new InvalidToolState(`the server's state of tool ${JSON.stringify(name)} is invalid: ${what}`);
  if (typeof value !== 'object' || Array.isArray(value)) throw fault('expected undefined or { reason, action?, detail?, remediation? }');
  const given = value as Readonly<Record<string, unknown>>;
  const extra = Object.keys(given).find((key) => !MEMBERS.has(key));
  if (extra !== undefined) throw fault(`unknown member ${JSON.stringify(extra)}`);
  const reason = given['reason'];
  if (typeof reason !== 'string' || !AUTHOR_CODES.has(reason)) {
    throw fault(`reason ${JSON.stringify(reason)} is not one a server may give in settings version ${SETTINGS_VERSION} (one of ${[...AUTHOR_CODES].join(', ')})`);
  }
  const code = reason as ReasonCode;
  const checked: { -readonly [K in keyof ToolUnavailability]: ToolUnavailability[K] } = { reason: code };
  if (Object.hasOwn(given, 'action') && given['action'] !== undefined) {
    const allowed: readonly string[] = (REASONS[code] as { diagnostic_actions?: readonly string[] }).diagnostic_actions ?? [];
    if (typeof given['action'] !== 'string' || !allowed.includes(given['action'])) {
      throw fault(allowed.length === 0 ? `${code} takes no action of the server's choosing` : `action of ${code} must be one of ${allowed.join(', ')}`);
    }
    checked.action = given['action'] as NonNullable<ToolUnavailability['action']>;
  }
  for (const member of ['detail', 'remediation'] as const) {
    const text = given[member];
    if (text === undefined) continue;
    if (typeof text !== 'string' || text.length === 0 || [...text].length > TEXT_MAX) throw fault(`${member} must be a string of 1-${TEXT_MAX} characters`);
    checked[member] = text;
  }
  return checked;
}

/** Where a check reads why tools are unavailable: `names` are the trimmed names it asks about. */
export interface AvailabilitySource {
  /** Tool name -> its checked unavailability, for the tools the server says anything about (among `names`, or all). */
  read(names: readonly string[], ctx: ServerContext): Promise<ReadonlyMap<string, ToolUnavailability | undefined>>;
}

/** A snapshot reader: one call per check; every named tool is part of the answer (listed or not). */
export function snapshotAvailability(reader: ToolStateReader): AvailabilitySource {
  return {
    async read(_names, ctx) {
      const snapshot = await reader(ctx);
      const entries: Iterable<readonly [string, unknown]> = snapshot instanceof Map ? snapshot.entries() : Object.entries(snapshot as Readonly<Record<string, unknown>>);
      const read = new Map<string, ToolUnavailability | undefined>();
      for (const [name, value] of entries) {
        const key = toolIdKey(name);
        if (!read.has(key)) read.set(key, checkedAvailability(name, value));
      }
      return read;
    },
  };
}

/** Per-tool callbacks: only the tools a check names are asked, each once. */
export function callbackAvailability(callbacks: ToolAvailabilityCallbacks): AvailabilitySource {
  const byKey = new Map<string, readonly [string, (ctx: ServerContext) => unknown]>();
  for (const [name, callback] of Object.entries(callbacks)) {
    if (typeof callback !== 'function') throw new TypeError(`availability.${name} must be a function (ctx) => undefined | { reason, ... }`);
    const key = toolIdKey(name);
    if (!byKey.has(key)) byKey.set(key, [name, callback]);
  }
  return {
    async read(names, ctx) {
      const read = new Map<string, ToolUnavailability | undefined>();
      for (const key of new Set(names)) {
        const entry = byKey.get(key);
        if (entry !== undefined) read.set(key, checkedAvailability(entry[0], await entry[1](ctx)));
      }
      return read;
    },
  };
}
