// @mcpproxy/extension: the app.mcpproxy/required-tools MCP extension for any MCP TypeScript SDK 2.x
// server. A server author gives its state (why any tool is unavailable) and an activity sink; the
// extension serves the tools/list rider, the tools/resolve facet and describe_tool check mode.
export { RequiredToolsExtension, type RequiredToolsAttachOptions, type RequiredToolsExtensionOptions } from './required-tools-extension.js';
export type { ToolAvailability, ToolAvailabilityCallbacks, ToolStateReader, ToolStateSnapshot } from './tool-availability.js';
export type { ToolUnavailability } from '@mcpproxy/evaluator';
export type { GatewayState } from './state-source.js';
export type { ActivitySink } from './in-band-check.js';
export { EXTENSION_EXPERIMENTS, type ExtensionExperiment } from './experimental-opt-in.js';
export type { InBandFailureCode, InBandSurface } from './in-band-outcome.js';
export { CHECK_MODE_TOOL } from './check-mode.js';
export { CHECK_MODE_TOOL_DEFINITION } from './check-mode-tool.js';
export { TOOL_RESOLUTION_EXTENSION_ID, TOOLS_RESOLVE_METHOD } from './tools-resolve.js';
// For a server that sends listings as prepared JSON bytes: the rider's answer is this copy of the
// listing (the listing's members first, as they are), so the bytes can be reused with the facet spliced in.
export { carryFacet } from './rider-carrier.js';
// The request rules and the activity record every surface of the preflight shares: the gateway's
// REST API validates, caps and records with these too.
export { parseSurfaceRequest, type ParsedSurfaceRequest, type SurfaceRequest, type SurfaceRequestError, type SurfaceRequestErrorCode } from './surface-request.js';
export { findPinConflict, type PinConflict } from './conflicting-pins.js';
export { acceptRequestId, freshRequestId, REQUEST_ID_PATTERN } from './request-id.js';
export { activityMetadata, preflightActivityRecord, type PreflightActivityFacts, type PreflightActivityMetadata } from './preflight-activity-record.js';
