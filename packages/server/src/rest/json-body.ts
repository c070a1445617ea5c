import type { IncomingMessage } from 'node:http';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Past this the connection is dropped instead of read to the end. */
const DRAIN_LIMIT_BYTES = 16 * MAX_BODY_BYTES;

export type JsonBody =
  | { readonly ok: true; readonly value: unknown; /** The body as sent (decoded UTF-8). */ readonly text: string }
  | {
      readonly ok: false;
      /** 415 for a Content-Type other than JSON, 400 for the rest. */
      readonly status: 400 | 415;
      readonly code: 'invalid_json' | 'body_too_large' | 'unsupported_media_type';
      readonly message: string;
      readonly path: string;
    };

/**
 * Reads a request body that must be exactly one JSON value of at most 1 MiB. A larger body is
 * read to its end without being kept (so the client receives the 400), unless it is huge.
 */
export async function readJsonBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<JsonBody> {
  const type = req.headers['content-type'];
  if (type !== undefined && !isJsonMediaType(type)) {
    return { ok: false, status: 415, code: 'unsupported_media_type', message: `Send the body as Content-Type: application/json (got ${type})`, path: 'Content-Type' };
  }
  const { chunks, size } = await readChunks(req, limit);
  if (size > limit) return { ok: false, status: 400, code: 'body_too_large', message: `The body is larger than ${limit} bytes`, path: '' };
  // A small body arrives as one chunk: decode it in place rather than copy it first.
  const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
  try {
    // JSON.parse accepts exactly one value surrounded by whitespace: "{} {}" is an error.
    return { ok: true, value: JSON.parse(text) as unknown, text };
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return { ok: false, status: 400, code: 'invalid_json', message: text.trim() === '' ? 'The body is empty: expected one JSON value' : `The body is not one JSON value: ${detail}`, path: '' };
  }
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
