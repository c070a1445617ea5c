#!/usr/bin/env tsx
// A short printout of the reason registry, so a new user sees what a preflight can answer.
import { pathToFileURL } from 'node:url';
import { loadSpec } from './load-spec.js';
import { emittableCodes, reservedCodes, SURFACE_NAMES, type Registry } from './registry-model.js';
import { repoPaths } from './repo-paths.js';

export function registrySummary(registry: Registry): string {
  const header = ['CODE', 'CLASS', 'RETRYABLE', 'ACTION', 'VERDICT', 'EXIT', 'SURFACES'];
  const rows = emittableCodes(registry).map((code) => {
    const r = registry.reasons[code];
    if (r === undefined) return [code];
    const surfaces = SURFACE_NAMES.filter((s) => r.surfaces[s]);
    return [code, r.class, String(r.retryable), r.action ?? '-', r.verdict, String(r.exit_code), surfaces.length === SURFACE_NAMES.length ? 'all' : surfaces.join(',')];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  const reserved = reservedCodes(registry);
  return [
    `${registry.extension}, settings version ${registry.settings_version}: ${rows.length} reason codes`,
    line(header),
    ...rows.map(line),
    ...(reserved.length === 0 ? [] : [`reserved (never emitted): ${reserved.join(', ')}`]),
    `verdicts, best to worst: ${registry.verdicts.map((v) => `${v.verdict} (exit ${v.exit_code})`).join(' < ')}`,
    '',
  ].join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(registrySummary(loadSpec(repoPaths()).registry));
}
