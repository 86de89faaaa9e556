/**
 * @tool-search/mastra: the public contract. Adding an export here makes it public API.
 */
export { isMastraProcessorError, MastraProcessorError } from './errors.js';
export type { MastraProcessorErrorCode } from './errors.js';
export type { ClientCallHandler } from './internal/session-mastra-tool.js';
export { ToolSearchSessionProcessor } from './tool-search-session-processor.js';
export type { DeferredSearchOptions, ToolSearchSessionProcessorOptions } from './tool-search-session-processor.js';
