/**
 * The supervised multi-server MCP client: connecting (stdio, Streamable HTTP, SSE, OAuth), listing and calling,
 * liveness and restarts, spawning stdio servers ahead, and reading `mcpServers` configs. The host and sessions
 * use it through this file only (a lint rule stops deep imports); what the package shows of it is chosen in
 * src/index.ts.
 */
export { connectMcpServer, DEFAULT_MAX_TOTAL_TIMEOUT_MS } from './connect-mcp-server.js';
export type {
  ConnectMcpServerOptions,
  McpElicitationHandler,
  McpOAuthOptions,
  McpSamplingHandler,
  McpServerRequestContext,
} from './connect-mcp-server-options.js';
export type {
  McpCallFailureCode,
  McpCallOptions,
  McpCallResult,
  McpCompleteResult,
  McpFailureKind,
  McpGetPromptResult,
  McpListResult,
  McpLogEntry,
  McpProgress,
  McpPrompt,
  McpReadResourceResult,
  McpResource,
  McpResourceTemplate,
  McpRoot,
  McpServerConnection,
  McpServerFeatures,
  McpServerStatus,
  McpToolAnnotations,
  McpToolDefinition,
  McpWithheldTool,
} from './mcp-server-connection.js';
export type { McpContentPart } from './mcp-content-part.js';
export { DEFAULT_MAX_CONCURRENT_STARTS, McpServerSupervisor } from './mcp-server-supervisor.js';
export type { McpServerState, RestartBackoff } from './mcp-server-supervisor.js';
export { convertMcpServersConfig } from './convert-mcp-servers-config.js';
export type { ConvertedMcpServers, ConvertMcpServersConfigOptions, FailedMcpServerEntry } from './convert-mcp-servers-config.js';
export { spawnStdioServersAhead } from './spawn-stdio-servers-ahead.js';
export type { StdioServersAhead } from './spawn-stdio-servers-ahead.js';
export { createMemoryTokenStore } from './oauth-token-store.js';
export { DEFAULT_OAUTH_REDIRECT_URL } from './create-oauth-provider.js';
export { MCP_LOG_LEVELS } from './mcp-log-levels.js';
export type { OAuthTokenStore, StoredOAuthState } from './oauth-token-store.js';
export { createFileTokenStore } from './create-file-token-store.js';
