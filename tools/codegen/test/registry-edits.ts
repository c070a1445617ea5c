// Edits of spec/reasons.json the guard tests make, written once.
import type { TempRepo } from './temp-repo.js';

type Json = Record<string, unknown>;
export type Reasons = Record<string, Json>;
export interface RegistryJson extends Json {
  settings_version: number;
  reasons: Reasons;
}

export const NEW_CODE = 'upstream_rate_limited';

export function newCodeEntry(since: number): Json {
  return {
    class: 'retryable',
    retryable: true,
    verdict: 'degraded_retryable',
    exit_code: 10,
    surfaces: { rest_operator: true, rest_agent: true, rider: true, check: true, resolve: true },
    status: 'active',
    since,
    wording: { detail: 'Server {server} is rate limiting the gateway.', remediation: 'Retry shortly.' },
  };
}

export function editRegistry(repo: TempRepo, edit: (registry: RegistryJson) => void, file = 'spec/reasons.json'): void {
  const registry = repo.readJson<RegistryJson>(file);
  edit(registry);
  repo.writeJson(file, registry);
}

/** Raises settings_version and freezes the result as spec/released/v<N>.json. */
export function bumpAndFreeze(repo: TempRepo, version: number): void {
  editRegistry(repo, (r) => {
    r.settings_version = version;
  });
  repo.write(`spec/released/v${version}.json`, repo.read('spec/reasons.json'));
}

export function addChangeset(repo: TempRepo, name: string, bump: string, body: string): void {
  repo.write(`.changeset/${name}.md`, `---\n"@mcpproxy/schema": ${bump}\n---\n\n${body}\n`);
}
