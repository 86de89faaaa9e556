/**
 * @tool-search/ai-sdk: the public contract. Adding an export here makes it public API.
 */
export { AiSdkError, isAiSdkError } from './errors.js';
export type { AiSdkErrorCode } from './errors.js';
export { toToolResultOutput } from './to-tool-result-output.js';
export type { ToolResultOutput } from './to-tool-result-output.js';
export { toolSearchFor } from './tool-search-for.js';
export type { ToolSearchForOptions } from './tool-search-for.js';
export { toolSearchTools } from './tool-search-tools.js';
export type { ToolSearchToolsOptions } from './tool-search-tools.js';
