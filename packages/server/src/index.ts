// @mcpproxy/server: the MCP gateway. `startGateway` runs it on a loaded configuration;
// `serveUntilStopped` runs it as a process does, for the CLI's `mcpproxy serve` and the package's own `serve`.
export {
  startGateway,
  type GatewayOptions,
  type GatewayStart,
  type GatewayStartError,
  type GatewayStartErrorCode,
  type RunningGateway,
} from './gateway.js';
export { serveUntilStopped, type ServeFailureCode, type ServeOptions, type ServeOutcome } from './serve-until-stopped.js';
export { EMBEDDED_DEFAULT, loadConfig, validateAndResolve, type ConfigError, type ConfigOverrides, type LoadConfigResult, type ResolvedConfig } from './config/gateway-config.js';
export type { GatewayRuntime, PublishedState, RuntimeServerSnapshot, RuntimeSnapshot, ServedTool } from './state/gateway-runtime.js';
export { RuntimeError, type RuntimeErrorCode } from './state/runtime-error.js';
// The app.mcpproxy/required-tools extension for any SDK server is its own package: @mcpproxy/extension.
