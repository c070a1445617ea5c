import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export type DataDirCreated = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * Creates the data directory (mode 0700) and its missing parents, one level at a time.
 * mkdirSync(..., { recursive: true }) on Node 20 spins at full CPU for ever, deaf to SIGTERM, on
 * a path it cannot create such as /proc/nope; so the nearest existing ancestor is checked first
 * (a directory this process may write), and each level is made without `recursive`, which fails
 * at once.
 */
export function createDataDir(path: string): DataDirCreated {
  const target = resolve(path);
  const missing: string[] = [];
  let existing = target;
  for (;;) {
    const kind = kindOf(existing);
    if (kind === 'directory') break;
    if (kind === 'other') return { ok: false, message: `cannot create data directory ${target}: ${existing} exists and is not a directory` };
    if (kind !== 'missing') return { ok: false, message: `cannot create data directory ${target}: ${kind}` };
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) return { ok: false, message: `cannot create data directory ${target}: no part of the path exists` };
    existing = parent;
  }
  if (missing.length === 0) return { ok: true };
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch {
    return { ok: false, message: `cannot create data directory ${target}: ${existing} is not writable by this user` };
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (cause) {
      // Another process made it in between: that is fine.
      if ((cause as { code?: unknown }).code === 'EEXIST' && kindOf(dir) === 'directory') continue;
      return { ok: false, message: `cannot create data directory ${target}: ${dir} cannot be created in ${dirname(dir)} (${cause instanceof Error ? cause.message : String(cause)})` };
    }
  }
  return { ok: true };
}

/** 'directory', 'other', 'missing', or why the path could not be examined. */
function kindOf(path: string): string {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'other';
  } catch (cause) {
    const code = (cause as { code?: unknown }).code;
    // ENOTDIR: a parent is a file, which the walk up reports as such.
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    return `${path} cannot be examined (${cause instanceof Error ? cause.message : String(cause)})`;
  }
}
