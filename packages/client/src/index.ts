// @mcpproxy/client: preflight required tools from any MCP client (the SDK's Client), through the
// app.mcpproxy/required-tools rider, describe_tool check mode, or the gateway's REST API.
export { requiredToolsCapabilities, EXTENSION_MIRROR } from './required-tools-capabilities.js';
