/**
 * @tool-search/e2e: the end-to-end harness (private). Adding an export here makes it part of the harness
 * API used by the tests and the `e2e`/`demo` scripts.
 */
export { comparisonScript, comparisonTask, codeModeProgram, idPattern } from './comparison-script.js';
export type { ComparisonTask } from './comparison-script.js';
export { E2eError, isE2eError } from './errors.js';
export type { E2eErrorCode } from './errors.js';
export { DEFAULT_FAKE_TOOL_COUNT, FAKE_PLUGIN_NAME, FAKE_PLUGIN_OK, fakeSchemaTokens, fakeToolSpecs, writeFakePlugin } from './write-fake-plugin.js';
export type { FakeToolSpec, WriteFakePluginOptions, WrittenFakePlugin } from './write-fake-plugin.js';
export { formatComparisonReport } from './format-comparison-report.js';
export { loadGatewayConfig, parseGatewayConfig } from './load-gateway-config.js';
export type { GatewayConfig, GatewayProviderConfig } from './load-gateway-config.js';
export { MCP_FIXTURE_PATH, MCP_FIXTURE_TOOL_COUNT } from './mcp-fixture.js';
export { startMockProvider } from './start-mock-provider.js';
export type { BeforeReply, MockProvider, MockProviderOptions, MockRefusal, RecordedProviderRequest, RequestSchemaCounts } from './start-mock-provider.js';
export { resolveScriptReply } from './resolve-script-reply.js';
export type {
  DeclaredTool,
  ProviderApi,
  ProviderRequestView,
  RequestMatcher,
  ResolvedReply,
  ScriptReply,
  ScriptRule,
  ScriptToolCall,
  ToolResultMessage,
} from './resolve-script-reply.js';
export { parseSessionLog, readSessionLog, summarizeSessionLog } from './read-session-log.js';
export type { SessionLogLine, SessionLogSummary } from './read-session-log.js';
export { citedRequirementIds, REQUIREMENTS, untestedRequirements } from './requirements.js';
export type { Requirement } from './requirements.js';
export { runAgentLoop } from './run-agent-loop.js';
export type { AgentLoopOptions, AgentLoopResult, AgentNativeSearch, AgentSession, AgentSurfaceFormat, AgentToolCall } from './run-agent-loop.js';
export { CLIENT_TOOLS, evaluateProofs, NATIVE_RENDERED_MODE, runComparison } from './run-comparison.js';
export type { ComparisonResult, ModeReport, ProofResult, RunComparisonOptions } from './run-comparison.js';
export { runScenario } from './run-scenario.js';
export type { RunScenarioOptions, ScenarioResult } from './run-scenario.js';
export { startGateway } from './start-gateway.js';
export type { Gateway, GatewayRunRecord, StartGatewayOptions } from './start-gateway.js';
export { COMPARISON_MODES, toolSearchSetting, writeGatewayConfig } from './write-gateway-config.js';
export type { ComparisonMode, WriteGatewayConfigOptions } from './write-gateway-config.js';
