/**
 * @tool-search/langchain: the public contract. Adding an export here makes it public API.
 */
export { isLangChainAdapterError, LangChainAdapterError } from './errors.js';
export type { LangChainAdapterErrorCode } from './errors.js';
export { toClientTools } from './to-client-tools.js';
export type { LangChainToolLike } from './to-client-tools.js';
export { toToolMessageContent } from './to-tool-message-content.js';
export type { ToolMessageContent, ToolMessageContentBlock } from './to-tool-message-content.js';
export { toolSearchMiddleware } from './tool-search-middleware.js';
export type { ToolSearchMiddlewareOptions } from './tool-search-middleware.js';
