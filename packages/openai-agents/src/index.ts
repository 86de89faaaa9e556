/**
 * @tool-search/openai-agents: the public contract. Adding an export here makes it public API.
 */
export { isOpenAIAgentsError, OpenAIAgentsError } from './errors.js';
export type { OpenAIAgentsErrorCode } from './errors.js';
export type { NonStrictParameters, StrictParameters } from './internal/agent-parameters.js';
export type { ClientCallHandler, SessionFunctionTool } from './internal/session-function-tool.js';
export { toAgentToolOutput } from './to-agent-tool-output.js';
export type { AgentToolOutput } from './to-agent-tool-output.js';
export { toolSearchFor } from './tool-search-for.js';
export { toolSearchTools } from './tool-search-tools.js';
export type { AgentToolsOptions } from './tool-search-tools.js';
