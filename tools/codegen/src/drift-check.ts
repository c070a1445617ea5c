// Compares what spec/ produces with what is on disk, and writes it when asked.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { CodegenProblem } from './codegen-error.js';
import { REGENERATE_COMMAND } from './generated-banner.js';
import { OWNED_DIRECTORIES, type GeneratedFile } from './generated-file.js';

export type DriftKind = 'differs' | 'missing' | 'stale';

export interface Drift {
  readonly path: string;
  readonly kind: DriftKind;
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

export function findDrift(root: string, files: readonly GeneratedFile[]): Drift[] {
  const expected = new Set(files.map((f) => f.path));
  const drift: Drift[] = [];
  for (const file of files) {
    const full = join(root, file.path);
    if (!existsSync(full)) drift.push({ path: file.path, kind: 'missing' });
    else if (readFileSync(full, 'utf8') !== file.content) drift.push({ path: file.path, kind: 'differs' });
  }
  for (const dir of OWNED_DIRECTORIES) {
    for (const full of listFiles(join(root, dir))) {
      const path = toPosix(relative(root, full));
      if (!expected.has(path)) drift.push({ path, kind: 'stale' });
    }
  }
  return drift.sort((a, b) => a.path.localeCompare(b.path));
}

export function driftProblems(drift: readonly Drift[]): CodegenProblem[] {
  return drift.map((d) => ({
    code: 'drift',
    message: `${d.path}: ${d.kind === 'differs' ? 'differs from what spec/ generates' : d.kind === 'missing' ? 'is missing' : 'is no longer generated'}; run: ${REGENERATE_COMMAND}`,
  }));
}

/** Brings the tree in line with the generated list; returns what changed. */
export function writeGenerated(root: string, files: readonly GeneratedFile[]): Drift[] {
  const drift = findDrift(root, files);
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const d of drift) {
    const full = join(root, d.path);
    if (d.kind === 'stale') {
      rmSync(full);
      continue;
    }
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, byPath.get(d.path)?.content ?? '');
  }
  return drift;
}
