/**
 * @tool-search/gateway-adapter/startup: what a command needs before the host, without loading the rest of the
 * gateway (the MCP client with ajv, the host, the sessions; the catalog and runner packages load only for their
 * limits): the config conversions, the root logger, and spawning stdio servers ahead so they start while the
 * host loads. Adding an export here makes it public API. Everything here is also exported from the package root.
 */
// The two MCP-client modules are named one by one (the lint rule allows this file alone): the client's index would
// load the whole client when run from source.
export { convertMcpServersConfig } from './mcp-client/convert-mcp-servers-config.js';
export type { ConvertedMcpServers, ConvertMcpServersConfigOptions, FailedMcpServerEntry } from './mcp-client/convert-mcp-servers-config.js';
export { createRootLogger } from './create-root-logger.js';
export type { RootLoggerOptions } from './create-root-logger.js';
export { GatewayAdapterError, isGatewayAdapterError } from './errors.js';
export type { GatewayAdapterErrorCode } from './errors.js';
export { resolveToolSearchConfig, TOOL_SEARCH_DEFAULTS } from './resolve-tool-search-config.js';
export type { DirectReason, ResolvedToolSearchConfig, ToolSearchEnv, ToolSearchMode } from './resolve-tool-search-config.js';
export type { McpServerConfig } from './schemas.js';
export { spawnStdioServersAhead } from './mcp-client/spawn-stdio-servers-ahead.js';
export { MCP_LOG_LEVELS } from './mcp-client/mcp-log-levels.js';
export type { StdioServersAhead } from './mcp-client/spawn-stdio-servers-ahead.js';
