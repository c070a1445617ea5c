// @mcpproxy/client: preflight required tools from any MCP client (the SDK's Client), through the
// app.mcpproxy/required-tools rider, describe_tool check mode, or the gateway's REST API.
export { requiredToolsCapabilities, EXTENSION_MIRROR } from './required-tools-capabilities.js';
export { preflight } from './preflight.js';
export { requireTools, type RequireToolsClock, type RequireToolsOptions } from './require-tools.js';
export { resolve, aggregateResolved, ResolveError, TOOLS_RESOLVE, type ResolveErrorCode, type ResolveOptions, type ResolvedAvailability, type ResolvedTool } from './resolve.js';
export { PreflightError, RequiredToolsUnavailableError, type PreflightErrorCode } from './preflight-error.js';
export type { Carriage, CarriageAttempt, PreflightOptions, PreflightResult, ReadyTool, RestCarriageOptions, ToolResult, UnavailableTool } from './preflight-result.js';
export { extensionSupport, type ExtensionSupport } from './extension-support.js';
export type { WireToolVerdict } from './tool-treatment.js';
