// The main job until the gateway exists: after the codegen check, print the reason
// registry so a new user sees what the preflight can answer.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface RegistryEntry {
  class: string;
  retryable: boolean;
  action?: string;
  verdict: string;
  exit_code: number;
  status: string;
  surfaces: Record<string, boolean>;
}
interface Registry {
  extension: string;
  settings_version: number;
  reasons: Record<string, RegistryEntry>;
}

const registryPath = fileURLToPath(new URL('../spec/reasons.json', import.meta.url));
const registry = JSON.parse(readFileSync(registryPath, 'utf8')) as Registry;
const rows = Object.entries(registry.reasons).map(([code, r]) => [
  code,
  r.class,
  String(r.retryable),
  r.action ?? '-',
  r.verdict,
  String(r.exit_code),
  r.status,
  Object.entries(r.surfaces)
    .filter(([, on]) => on)
    .map(([s]) => s)
    .join(',') || '-',
]);
const header = ['CODE', 'CLASS', 'RETRYABLE', 'ACTION', 'VERDICT', 'EXIT', 'STATUS', 'SURFACES'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();

console.log(`${registry.extension} reason registry, settings version ${registry.settings_version}`);
console.log(line(header));
for (const row of rows) console.log(line(row));
