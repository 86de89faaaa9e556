/**
 * @tool-search/gateway-adapter: the public contract. Adding an export here makes it public API.
 */
export { connectMcpServer, DEFAULT_MAX_TOTAL_TIMEOUT_MS } from './connect-mcp-server.js';
export type {
  ConnectMcpServerOptions,
  McpCallFailureCode,
  McpCallOptions,
  McpCallResult,
  McpCompleteResult,
  McpElicitationHandler,
  McpFailureKind,
  McpGetPromptResult,
  McpListResult,
  McpLogEntry,
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
  McpServerStatus,
  McpToolAnnotations,
  McpToolDefinition,
  McpWithheldTool,
} from './connect-mcp-server.js';
export { convertMcpServersConfig } from './convert-mcp-servers-config.js';
export type { ConvertedMcpServers, ConvertMcpServersConfigOptions } from './convert-mcp-servers-config.js';
export { createArgsValidator } from './create-args-validator.js';
export type { ArgsValidation, ArgsValidator, ArgsValidatorOptions } from './create-args-validator.js';
export { createFileTokenStore, TOKEN_FILE_MODE } from './create-file-token-store.js';
export { createRootLogger, DEFAULT_REDACT_PATHS } from './create-root-logger.js';
export type { RootLoggerOptions } from './create-root-logger.js';
export { createSessionLog } from './create-session-log.js';
export type { SessionLog, SessionLogEvent, SessionLogTarget } from './create-session-log.js';
export { createToolSearchHost } from './create-tool-search-host.js';
export type {
  CreateToolSearchHostOptions,
  HostMcpServer,
  HostServerStatus,
  HostStatus,
  McpClientOptions,
  ToolSearchHost,
  ToolSearchHostSources,
} from './create-tool-search-host.js';
export type { OpenSessionOptions } from './internal/open-tool-search-session.js';
export type { McpServerState, RestartBackoff } from './internal/mcp-server-supervisor.js';
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
export { decideToolSearchMode } from './decide-tool-search-mode.js';
export type { RuntimeProbe, ToolSearchModeDecision } from './decide-tool-search-mode.js';
export { GatewayAdapterError, isGatewayAdapterError, isToolSearchError } from './errors.js';
export type { GatewayAdapterErrorCode, ToolSearchError } from './errors.js';
export type { ClientTool, ExecutableTool, ToolExecutionContext } from './executable-tool.js';
export { DEFAULT_SCHEMA_LIMITS } from './internal/check-schema-limits.js';
export type { SchemaLimits } from './internal/check-schema-limits.js';
export { loadPluginTools } from './load-plugin-tools.js';
export type { LoadedPlugin, PluginSpec } from './load-plugin-tools.js';
export type { McpContentPart } from './mcp-content-part.js';
export { createMemoryTokenStore } from './oauth-token-store.js';
export type { OAuthTokenStore, StoredOAuthState } from './oauth-token-store.js';
export { renderOutcome } from './render-outcome.js';
export { renderToolResult, stringifyResult, UNTRUSTED_RESULT_MAX_CHARS } from './render-tool-result.js';
export type { RenderedToolResult } from './render-tool-result.js';
export { repairFlattenedArgs } from './repair-flattened-args.js';
export type { RepairedArgs } from './repair-flattened-args.js';
export { isResolvedToolSearchConfig, resolveToolSearchConfig, TOOL_SEARCH_DEFAULTS } from './resolve-tool-search-config.js';
export type { DirectReason, ResolvedToolSearchConfig, ToolSearchEnv, ToolSearchMode } from './resolve-tool-search-config.js';
export { mcpOAuthConfigSchema, mcpServerConfigSchema, toolSearchConfigObjectSchema, toolSearchConfigSchema } from './schemas.js';
export type { McpOAuthConfig, McpServerConfig, ToolSearchConfigInput } from './schemas.js';
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
