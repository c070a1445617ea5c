import type { IncomingMessage } from 'node:http';
import { parseJsonText } from '../json/json-text.js';
import { nonUtf8Offset } from '../json/non-utf8-offset.js';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this the connection is dropped instead of read to the end. */
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

/** Why a body was refused before it was parsed. */
export interface BodyRefusal {
  readonly ok: false;
  /** 415 for a Content-Type other than JSON or a compressed body, 400 for the rest. */
  readonly status: 400 | 415;
  readonly code: 'invalid_json' | 'body_too_large' | 'unsupported_media_type';
  readonly message: string;
  readonly path: string;
}

export type JsonBody = { readonly ok: true; readonly value: unknown; /** The body as sent (decoded UTF-8, without a leading byte order mark). */ readonly text: string } | BodyRefusal;

/** A JSON body as sent, not yet parsed. */
export type BodyText = { readonly ok: true; readonly text: string } | BodyRefusal;

/**
 * Reads a request body that must be exactly one JSON value of at most 1 MiB, in UTF-8 and not
 * compressed. A larger body is read to its end without being kept (so the client receives the 400),
 * unless it is huge.
 */
export async function readJsonBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<JsonBody> {
  const body = await readBodyText(req, limit);
  if (!body.ok) return body;
  const parsed = parseJsonText(body.text);
  return parsed.ok ? { ok: true, value: parsed.value, text: body.text } : { ok: false, status: 400, code: 'invalid_json', message: parsed.message, path: '' };
}

/** The body of a JSON request as text (media type and size checked as readJsonBody does), for a reader that may not need its value. */
export async function readBodyText(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<BodyText> {
  const type = req.headers['content-type'];
  if (type !== undefined && !isJsonMediaType(type)) {
    return { ok: false, status: 415, code: 'unsupported_media_type', message: `Send the body as Content-Type: application/json (got ${type})`, path: 'Content-Type' };
  }
  // Compressed bytes read as text would fail as JSON with a message about the bytes, not the coding.
  const coding = req.headers['content-encoding'];
  if (coding !== undefined && !isIdentity(coding)) {
    return { ok: false, status: 415, code: 'unsupported_media_type', message: `Send the body uncompressed (got Content-Encoding: ${coding})`, path: 'Content-Encoding' };
  }
  // Usually the whole body came with the headers: node:http has already buffered it and its end by the time
  // a handler asks, and one read() takes it without turning the stream to flowing (resume, a data and an
  // end event, a promise: ~5% of a repeated preflight's event-loop time in a CPU profile).
  if (req.complete && req.readableLength <= limit) {
    const whole = req.read() as Buffer | null;
    return whole === null ? { ok: true, text: '' } : decoded(whole);
  }
  const { chunks, size } = await readChunks(req, limit);
  if (size > limit) return { ok: false, status: 400, code: 'body_too_large', message: `The body is larger than ${limit} bytes`, path: '' };
  // A small body arrives as one chunk: decode it in place rather than copy it first.
  return decoded(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
}

/**
 * The body's text. Bytes that are not UTF-8 are refused where they are: decoded, they would become
 * U+FFFD, and a tool ID with them would be answered, and recorded, as an ID nobody sent. A leading
 * byte order mark is dropped, as the MCP endpoint drops it (RFC 8259 lets a parser ignore it).
 */
function decoded(bytes: Buffer): BodyText {
  const offset = nonUtf8Offset(bytes);
  if (offset !== undefined) {
    const lead = bytes[offset];
    const byte = lead === undefined ? 'its end' : `0x${lead.toString(16).toUpperCase().padStart(2, '0')}`;
    return { ok: false, status: 400, code: 'invalid_json', message: `The body is not UTF-8: no UTF-8 character starts at byte ${offset} (${byte})`, path: '' };
  }
  return { ok: true, text: bytes.toString('utf8', hasByteOrderMark(bytes) ? BYTE_ORDER_MARK.length : 0) };
}

const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

function hasByteOrderMark(bytes: Buffer): boolean {
  return bytes.length >= BYTE_ORDER_MARK.length && bytes[0] === BYTE_ORDER_MARK[0] && bytes[1] === BYTE_ORDER_MARK[1] && bytes[2] === BYTE_ORDER_MARK[2];
}

/** No coding at all: `identity` (any case), or an empty header. */
function isIdentity(header: string): boolean {
  const coding = header.trim().toLowerCase();
  return coding === '' || coding === 'identity';
}

/** The body's chunks up to `limit` bytes and its full size (events, not an async iterator: this is the hot path). */
function readChunks(req: IncomingMessage, limit: number): Promise<{ chunks: Buffer[]; size: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > DRAIN_LIMIT_BYTES) {
        req.destroy();
        resolve({ chunks, size });
      }
    });
    req.once('end', () => resolve({ chunks, size }));
    req.once('error', reject);
  });
}

function isJsonMediaType(header: string): boolean {
  // What nearly every client sends, checked before anything is split or lowered.
  if (header === 'application/json') return true;
  const media = header.split(';')[0]?.trim().toLowerCase() ?? '';
  return media === 'application/json' || (media.startsWith('application/') && media.endsWith('+json'));
}
