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
// The app.mcpproxy/required-tools extension, usable on any SDK server with its own state provider.
export { RequiredToolsExtension, type RequiredToolsAttachOptions, type RequiredToolsExtensionOptions } from './extension/required-tools-extension.js';
export type { InBandCheck, InBandFailure, InBandOutcome, InBandSurface, InBandVerdict, RequiredToolsSource } from './extension/required-tools-source.js';
export { TOOL_RESOLUTION_EXTENSION_ID, TOOLS_RESOLVE_METHOD } from './extension/tools-resolve.js';
