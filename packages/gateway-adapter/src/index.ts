/**
 * @tool-search/gateway-adapter: the public contract. Adding an export here makes it public API.
 */
export type {
  McpCallFailureCode,
  McpCallOptions,
  McpCallResult,
  McpCompleteResult,
  McpElicitationHandler,
  McpFailureKind,
  McpGetPromptResult,
  McpListResult,
  McpOAuthOptions,
  McpProgress,
  McpPrompt,
  McpReadResourceResult,
  McpResource,
  McpResourceTemplate,
  McpRoot,
  McpSamplingHandler,
  McpServerConnection,
  McpServerFeatures,
  McpServerRequestContext,
  McpServerStatus,
  McpToolAnnotations,
  McpToolDefinition,
  McpWithheldTool,
} from './mcp-client/index.js';
export { convertMcpServersConfig } from './mcp-client/index.js';
export type { ConvertedMcpServers, ConvertMcpServersConfigOptions, FailedMcpServerEntry } from './mcp-client/index.js';
export { createFileEmbeddingCache } from './create-file-embedding-cache.js';
export type { FileEmbeddingCache, FileEmbeddingCacheOptions } from './create-file-embedding-cache.js';
export { createFileTokenStore, DEFAULT_OAUTH_REDIRECT_URL, MCP_LOG_LEVELS } from './mcp-client/index.js';
export { createRootLogger } from './create-root-logger.js';
export type { RootLoggerOptions } from './create-root-logger.js';
export { createSessionLog } from './create-session-log.js';
export type { SessionLog, SessionLogEvent, SessionLogTarget } from './create-session-log.js';
export { createToolSearchHost } from './create-tool-search-host.js';
export type { ToolSearchHost } from './create-tool-search-host.js';
export type { OpenTelemetryOptions } from './otel/gateway-spans.js';
export { MCP_DURATION_BUCKETS } from './otel/gateway-instruments.js';
export { pickDefined } from './pick-defined.js';
export type {
  CreateToolSearchHostOptions,
  HostMcpServer,
  HostServerStatus,
  HostStatus,
  McpClientOptions,
  ToolSearchHostSources,
} from './host/index.js';
export type { CodeRunLimits } from './shared/index.js';
export type { OpenSessionOptions } from './session/index.js';
export type { PolicyCacheStatus } from './host/index.js';
export type { McpServerState, RestartBackoff } from './mcp-client/index.js';
export { createToolSearchSession } from './create-tool-search-session.js';
export type { CreateToolSearchSessionOptions, ToolSearchSources } from './create-tool-search-session.js';
export type {
  ExecuteOptions,
  ModelSurface,
  NativeSearchFormat,
  NativeSearchResult,
  RenderedSurface,
  SearchLimits,
  SessionSearchOptions,
  ToolCallRequest,
  ToolProgress,
  ToolSearchSession,
} from './tool-search-session.js';
export type { RuntimeProbe, ToolSearchModeDecision } from './decide-tool-search-mode.js';
export { GatewayAdapterError, isGatewayAdapterError, isToolSearchError } from './errors.js';
export type { GatewayAdapterErrorCode, ToolSearchError } from './errors.js';
export type { ClientTool, ExecutableTool, ToolExecutionContext } from './executable-tool.js';
export type { PluginSpec } from './host/index.js';
export type { McpContentPart } from './mcp-client/index.js';
export { createMemoryTokenStore } from './mcp-client/index.js';
export type { OAuthTokenStore, StoredOAuthState } from './mcp-client/index.js';
export { renderOutcome } from './render-outcome.js';
export { resolveToolSearchConfig, TOOL_SEARCH_DEFAULTS } from './resolve-tool-search-config.js';
export type {
  DirectReason,
  ResolvedToolSearchConfig,
  ToolSearchEnv,
  ToolSearchMode,
} from './resolve-tool-search-config.js';
export { mcpServerConfigSchema } from './schemas.js';
export type { McpServerConfig } from './schemas.js';
export { spawnStdioServersAhead } from './mcp-client/index.js';
export type { StdioServersAhead } from './mcp-client/index.js';
export type { CallRoute, FinalCallRecord, SurfaceTelemetry, Telemetry } from './telemetry.js';
export type {
  BlockedOutcome,
  ClientOutcome,
  ErrorOutcome,
  OkOutcome,
  OutcomeKind,
  ToolCallErrorCode,
  ToolCallOutcome,
  ToolRef,
} from './tool-call-outcome.js';
