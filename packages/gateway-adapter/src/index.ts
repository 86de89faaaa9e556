/**
 * @tool-search/gateway-adapter: the public contract. Adding an export here makes it public API.
 */
export { connectMcpServer } from './connect-mcp-server.js';
export type { ConnectMcpServerOptions, McpCallResult, McpServerConnection, McpToolDefinition } from './connect-mcp-server.js';
export { createArgsValidator } from './create-args-validator.js';
export type { ArgsValidation, ArgsValidator } from './create-args-validator.js';
export { createRootLogger, DEFAULT_REDACT_PATHS } from './create-root-logger.js';
export type { RootLoggerOptions } from './create-root-logger.js';
export { createSessionLog } from './create-session-log.js';
export type { SessionLog, SessionLogEvent, SessionLogTarget } from './create-session-log.js';
export { createToolSearchHost } from './create-tool-search-host.js';
export type { CreateToolSearchHostOptions, HostServerStatus, HostStatus, ToolSearchHost, ToolSearchHostSources } from './create-tool-search-host.js';
export type { OpenSessionOptions } from './internal/open-tool-search-session.js';
export type { McpServerState, RestartBackoff } from './internal/mcp-server-supervisor.js';
export { createToolSearchSession } from './create-tool-search-session.js';
export type { CreateToolSearchSessionOptions, ToolSearchSources } from './create-tool-search-session.js';
export type { ExecuteOptions, RenderedSurface, ToolCallRequest, ToolProgress, ToolSearchSession } from './tool-search-session.js';
export { decideToolSearchMode } from './decide-tool-search-mode.js';
export type { RuntimeProbe, ToolSearchModeDecision } from './decide-tool-search-mode.js';
export { GatewayAdapterError, isGatewayAdapterError } from './errors.js';
export type { GatewayAdapterErrorCode } from './errors.js';
export type { ClientTool, ExecutableTool, ToolExecutionContext } from './executable-tool.js';
export { loadPluginTools } from './load-plugin-tools.js';
export type { LoadedPlugin, PluginSpec } from './load-plugin-tools.js';
export { renderToolResult, stringifyResult, UNTRUSTED_RESULT_MAX_CHARS } from './render-tool-result.js';
export type { RenderedToolResult } from './render-tool-result.js';
export { repairFlattenedArgs } from './repair-flattened-args.js';
export type { RepairedArgs } from './repair-flattened-args.js';
export { isResolvedToolSearchConfig, resolveToolSearchConfig, TOOL_SEARCH_DEFAULTS } from './resolve-tool-search-config.js';
export type { DirectReason, ResolvedToolSearchConfig, ToolSearchEnv, ToolSearchMode } from './resolve-tool-search-config.js';
export { mcpServerConfigSchema, toolSearchConfigObjectSchema, toolSearchConfigSchema } from './schemas.js';
export type { McpServerConfig, ToolSearchConfigInput } from './schemas.js';
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
