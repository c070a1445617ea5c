import { jsonBytesOf } from '../json/frozen-json.js';
import { preparedBaseCandidate, preparedJson } from './prepared-json.js';

/** Plain objects this many levels down are searched for prepared parts: a JSON-RPC response, its result. */
const SEARCH_DEPTH = 2;

/**
 * The JSON text of an outgoing message, byte for byte what `JSON.stringify(message)` gives, built
 * from prepared bytes wherever the message holds a value that has them (prepared-json.ts): a marked
 * page as its bytes; a copy of a marked page with members added after the page's own (a rider's
 * `_meta`, a revision's `resultType`, `ttlMs`, `cacheScope`) as the page's bytes with those few members
 * serialized and spliced in before its closing brace. So an answer costs the serialization of what it
 * adds to the listing, not of the listing.
 *
 * The text comes in pieces, in order: the prepared bytes are handed on as they are (views, never
 * copied), to be written one after another; only the pieces around them are new (one between any
 * two prepared parts).
 *
 * Undefined when nothing in the message (down to a result's own members) has prepared bytes: the
 * caller serializes it as usual.
 */
export function splicedJson(message: unknown): readonly Buffer[] | undefined {
  const parts = partsOf(message, SEARCH_DEPTH);
  if (parts === undefined) return undefined;
  // Everything between two prepared pages goes out as one piece: its strings written and the shared
  // values' bytes copied into it (a few KB), where a separate piece would cost the stream a read and
  // the socket a write of their own.
  const pieces: Buffer[] = [];
  let run: (string | Shared)[] = [];
  for (const part of parts) {
    if (Buffer.isBuffer(part)) {
      if (run.length > 0) pieces.push(joined(run));
      run = [];
      pieces.push(part);
    } else run.push(part);
  }
  if (run.length > 0) pieces.push(joined(run));
  return pieces;
}

/** A frozen value's JSON bytes (frozen-json.ts), kept for every answer that carries it: copied into a piece, never sent as one. */
class Shared {
  constructor(readonly bytes: Buffer) {}
}

/** A prepared page's bytes (sent as they are), JSON text, or a shared value's bytes. */
type Part = string | Buffer | Shared;
type Parts = Part[];

function joined(run: readonly (string | Shared)[]): Buffer {
  if (!run.some((part) => part instanceof Shared)) return Buffer.from(run.join(''), 'utf8');
  let length = 0;
  for (const part of run) length += part instanceof Shared ? part.bytes.length : Buffer.byteLength(part, 'utf8');
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  for (const part of run) at += part instanceof Shared ? part.bytes.copy(out, at) : out.write(part, at, 'utf8');
  return out;
}

function partsOf(value: unknown, depth: number): Parts | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const own = preparedJson(value);
  if (own !== undefined) return [own];
  if (depth === 0 || !isPlainRecord(value)) return undefined;
  const keys = Object.keys(value);
  return extensionParts(value, keys) ?? memberParts(value, keys, depth - 1);
}

/** `value` as a copy of a marked object plus members after its own: the marked bytes, opened to take the rest. */
function extensionParts(value: Readonly<Record<string, unknown>>, keys: readonly string[]): Parts | undefined {
  const base = preparedBaseCandidate(value);
  if (base === undefined) return undefined;
  const baseKeys = Object.keys(base);
  if (baseKeys.length === 0 || baseKeys.length > keys.length) return undefined;
  for (let i = 0; i < baseKeys.length; i++) {
    const key = baseKeys[i]!;
    if (keys[i] !== key || value[key] !== (base as Record<string, unknown>)[key]) return undefined;
  }
  const bytes = preparedJson(base)!;
  const added: Parts = [];
  for (let i = baseKeys.length; i < keys.length; i++) {
    writeMember(',', keys[i]!, value[keys[i]!], SHARED_TEXT_DEPTH, added);
  }
  if (added.length === 0) return [bytes];
  added.push('}');
  return [bytes.subarray(0, bytes.length - 1), ...added];
}

/** `value` member by member, when at least one member has prepared parts. */
function memberParts(value: Readonly<Record<string, unknown>>, keys: readonly string[], depth: number): Parts | undefined {
  const inner = keys.map((key) => partsOf(value[key], depth));
  if (inner.every((parts) => parts === undefined)) return undefined;
  const out: Parts = [];
  let separator = '{';
  keys.forEach((key, i) => {
    const parts = inner[i];
    if (parts !== undefined) {
      out.push(`${separator}${JSON.stringify(key)}:`, ...parts);
      separator = ',';
      return;
    }
    if (writeMember(separator, key, value[key], SHARED_TEXT_DEPTH, out)) separator = ',';
  });
  out.push('}');
  return out;
}

/**
 * Appends `separator` and `"key":value` to `out` exactly as JSON.stringify writes the member inside
 * an object (the key escaped, `toJSON` called with the key); false, with nothing appended (not the
 * separator either), for a member it leaves out (undefined, a function, a symbol).
 *
 * A frozen plain object or array down in the member (a rider's wire verdicts, shared by every answer
 * to the same rider) is written as its JSON bytes kept per frozen value (frozen-json.ts, whose
 * convention is that a frozen value is frozen all the way down): the per-answer members around it
 * (time, request id) are serialized, the shared ones once, and encoded to UTF-8 once.
 */
function writeMember(separator: string, key: string, member: unknown, depth: number, out: Parts): boolean {
  const mark = out.length;
  out.push(`${separator}${JSON.stringify(key)}:`);
  if (writeValue(key, member, depth, out)) return true;
  out.length = mark;
  return false;
}

/** How far down an added member the splice looks for frozen values (result._meta[extension].tools). */
const SHARED_TEXT_DEPTH = 3;

function writeValue(key: string, value: unknown, depth: number, out: Parts): boolean {
  if (typeof value === 'object' && value !== null && isPlainValue(value)) {
    if (Object.isFrozen(value)) {
      out.push(new Shared(jsonBytesOf(value)));
      return true;
    }
    if (depth > 0 && !Array.isArray(value)) {
      out.push('{');
      let separator = '';
      for (const inner of Object.keys(value)) {
        if (writeMember(separator, inner, (value as Record<string, unknown>)[inner], depth - 1, out)) separator = ',';
      }
      out.push('}');
      return true;
    }
  }
  const text = JSON.stringify({ [key]: value });
  // `{"key":value}`: the value starts after the escaped key and its colon.
  if (text.length === 2) return false;
  out.push(text.slice(JSON.stringify(key).length + 2, -1));
  return true;
}

/** A plain object or array, which JSON.stringify writes member by member (no toJSON of its own). */
function isPlainValue(value: object): boolean {
  return Array.isArray(value) ? Object.getPrototypeOf(value) === Array.prototype && !Object.hasOwn(value, 'toJSON') : isPlainRecord(value);
}

/** An object JSON.stringify writes member by member: no array, no toJSON, no boxed primitive. */
function isPlainRecord(value: object): value is Readonly<Record<string, unknown>> {
  const proto: unknown = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
