// Example values the fixtures fill the registry's wording placeholders with: one tool on one
// server, so every fixture reads like a real answer.
import type { WORDING_PLACEHOLDERS } from './registry-model.js';

export const EXAMPLE_SERVER = 'github';
export const EXAMPLE_TOOL = 'create_issue';
export const EXAMPLE_ID = `${EXAMPLE_SERVER}:${EXAMPLE_TOOL}`;
export const EXAMPLE_HASH = `sha256/v1:${'0123456789abcdef'.repeat(4)}`;
export const EXAMPLE_CHECKED_AT = '2026-08-19T09:00:00Z';
export const EXAMPLE_REQUEST_ID = 'req_01J8Z3K4M5N6P7Q8R9S0T1V2W3';

export const PLACEHOLDER_VALUES: Readonly<Record<(typeof WORDING_PLACEHOLDERS)[number], string>> = {
  id: EXAMPLE_ID,
  server: EXAMPLE_SERVER,
  tool: EXAMPLE_TOOL,
  last_error: 'connect ECONNREFUSED 127.0.0.1:9000',
  pinned: `sha256/v1:${'f'.repeat(64)}`,
  current: EXAMPLE_HASH,
  pinned_version: '1',
  current_version: '2',
  annotation: 'readOnlyHint',
  annotation_value: 'false',
  policy_rule: 'read_only_only',
  overload_signal: 'HTTP 429',
  retry_after: '30',
};

export function fillWording(text: string): string {
  return text.replace(/\{([a-z_]+)\}/g, (match, name: string) => PLACEHOLDER_VALUES[name as keyof typeof PLACEHOLDER_VALUES] ?? match);
}
