// @mcpproxy/cli: the `mcpproxy` command. The binary is dist/bin/mcpproxy.js; runCli runs a command
// line in-process (the same thing, with the process surroundings passed in).
export { runCli } from './run-cli.js';
export type { CliIo, Writable } from './cli-io.js';
export { CLI_VERSION } from './cli-version.js';
export type { PreflightReport, ReportTool, Carriage } from './preflight/preflight-report.js';
