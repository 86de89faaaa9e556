// The one error class of @tool-search/mcp-server. What an MCP client asks for and cannot get (an unknown prompt,
// a denied resource, a tool call that failed) is answered on the wire as a JSON-RPC error or an `isError`
// result; this class is for broken contracts of the library itself: bad options.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** The closed set of codes a `McpServerError` carries. */
export type McpServerErrorCode = 'invalid_options';

/**
 * Thrown by the factories of this package when their options are unusable. `path` is which option is wrong
 * (`http.allowedHosts`), when known.
 */
export class McpServerError extends ToolSearchErrorBase<McpServerErrorCode> {
  constructor(code: McpServerErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super('McpServerError', code, message, options);
  }
}

/** True when `value` is a `McpServerError`, across package copies (brand check, not `instanceof`). */
export const isMcpServerError = createErrorGuard<McpServerError>('McpServerError');
