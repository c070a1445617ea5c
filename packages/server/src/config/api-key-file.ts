import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDataDir } from '../store/data-dir-create.js';

export const API_KEY_FILE_NAME = 'api-key';

export type ApiKeyResult =
  | { ok: true; key: string; file: string; generated: boolean }
  | { ok: false; file: string; message: string };

/**
 * The admin API key kept in `<dataDir>/api-key` (mode 0600): read when present, generated
 * (32 random bytes, base64url) on first use. The CLI on the same machine reads the same file.
 */
export function ensureApiKey(dataDir: string): ApiKeyResult {
  const file = join(dataDir, API_KEY_FILE_NAME);
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 16) return { ok: true, key: existing, file, generated: false };
  } catch (cause) {
    if (!isCode(cause, 'ENOENT')) return { ok: false, file, message: `cannot read ${file}: ${text(cause)}` };
  }
  const key = randomBytes(32).toString('base64url');
  const created = createDataDir(dataDir);
  if (!created.ok) return { ok: false, file, message: created.message };
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
    // writeFileSync keeps the mode of a file that already existed (an empty or short one).
    chmodSync(file, 0o600);
  } catch (cause) {
    return { ok: false, file, message: `cannot write ${file}: ${text(cause)}` };
  }
  return { ok: true, key, file, generated: true };
}

function isCode(cause: unknown, code: string): boolean {
  return typeof cause === 'object' && cause !== null && (cause as { code?: unknown }).code === code;
}

function text(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
