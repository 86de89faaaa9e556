/**
 * @tool-search/mcp-server: the public contract. Adding an export here makes it public API.
 */
export { createMcpClientRelay } from './create-mcp-client-relay.js';
export type { McpClientRelay, RelayCall } from './create-mcp-client-relay.js';
export { createToolSearchMcpServer } from './create-tool-search-mcp-server.js';
export type { CreateToolSearchMcpServerOptions, ToolSearchMcpServer } from './create-tool-search-mcp-server.js';
export { isMcpServerError, McpServerError } from './errors.js';
export type { McpServerErrorCode } from './errors.js';
export type { InputCallRendezvous, InputCallReply } from './input-call-rendezvous.js';
export { createGuardedStdioTransport } from './create-guarded-stdio-transport.js';
export type { GuardedStdioTransport, GuardedStdioTransportOptions } from './create-guarded-stdio-transport.js';
export { createToolSearchHttpHandler } from './create-tool-search-http-handler.js';
export type { CreateToolSearchHttpHandlerOptions, ToolSearchHttpHandler } from './create-tool-search-http-handler.js';
export { isModernOpening, serveStdioByEra } from './serve-stdio-by-era.js';
export { checkHttpRequest } from './internal/check-http-request.js';
export type { HttpRequestRules } from './internal/check-http-request.js';
export type { StdioByEra } from './serve-stdio-by-era.js';
/** The bus a 2026-07-28 front's `subscriptions/listen` streams follow (`eventBus`); implement it to share list changes across replicas. */
export type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server';
