/**
 * The `default` keywords of spec/config.schema.json, as values (a test reads the schema and
 * checks that both agree).
 */
export const GATEWAY_DEFAULTS = {
  listen: '127.0.0.1:8080',
  data_dir: '~/.mcpproxy',
  store: { kind: 'sqlite' },
  tool_quarantine: true,
  require_mcp_auth: false,
  page_size: 100,
  activity_max_records: 10_000,
  activity_max_age_days: 30,
  store_wal_limit_bytes: 64 * 1024 * 1024,
  upstream_timeout_ms: 30_000,
  tool_call_timeout_ms: 60_000,
  reconnect_initial_delay_ms: 1000,
  reconnect_max_delay_ms: 30_000,
  first_listing_wait_ms: 5000,
  watch_config: false,
  extension_experiments: [],
  oauth_callback_port: 8799,
  agent_tokens: [],
  profiles: [],
  allowed_hosts: [],
  allowed_origins: [],
} as const;

export const STORE_DEFAULTS = {
  pool_size: 10,
} as const;

export const SERVER_DEFAULTS = {
  args: [],
  env: {},
  headers: {},
  enabled: true,
  enabled_tools: [],
  disabled_tools: [],
  auto_approve_tool_changes: false,
  saturation_error_codes: [],
} as const;

/** Overrides the default data directory (tests, and running several gateways side by side). */
export const DATA_DIR_ENV = 'MCPPROXY_DATA_DIR';

/** Replaces the configuration's listen address (`serve --listen` wins over it). The CLI reads it too. */
export const LISTEN_ENV = 'MCPPROXY_LISTEN';
