/**
 * @tool-search/adk: the public contract. Adding an export here makes it public API.
 */
export { AdkError, isAdkError } from './errors.js';
export type { AdkErrorCode } from './errors.js';
export type { ClientCallHandler } from './internal/session-tool.js';
export { toFunctionResponse } from './to-function-response.js';
export { DEFAULT_LOADED_STATE_KEY, ToolSearchToolset } from './tool-search-toolset.js';
export type { StateReader, ToolSearchToolsetOptions } from './tool-search-toolset.js';
