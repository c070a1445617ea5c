// The code the test's own third build adds with `pnpm registry add`, the way MAINTAINERS.md
// says, with a flag for every column the command takes. Made up for the test: no release of the
// real packages carries it, so every consumer built before the third build has no entry for it.
export const NEW_CODE = 'test_only_v3_code';

export const REGISTRY_ADD_ARGS: readonly string[] = [
  'registry',
  'add',
  '--code',
  NEW_CODE,
  '--class',
  'retryable',
  '--verdict',
  'degraded_retryable',
  '--action',
  'view_logs',
  '--diagnostic-actions',
  'restart,view_logs',
  '--surfaces',
  'all',
  '--status',
  'active',
  '--detail',
  'Server {server} is taking part in the release test.',
  '--remediation',
  "Read the server's state with mcpproxy servers list, then retry: mcpproxy tools preflight {id} --wait 10s",
  '--variant-detail',
  'restart=Server {server} is taking part in the release test and needs a restart.',
  '--variant-remediation',
  'restart=Restart the server: mcpproxy servers restart {server}',
];
