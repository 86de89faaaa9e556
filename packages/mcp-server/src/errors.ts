// The one error class of @tool-search/mcp-server. What an MCP client asks for and cannot get (an unknown prompt,
// a denied resource, a tool call that failed) is answered on the wire as a JSON-RPC error or an `isError`
// result; this class is for broken contracts of the library itself: bad options.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of the package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

/** The closed set of codes a `McpServerError` carries. */
export type McpServerErrorCode = 'invalid_options';

/** Thrown by the factories of this package when their options are unusable. */
export class McpServerError extends Error {
  readonly code: McpServerErrorCode;
  /** Which option is wrong (`http.allowedHosts`), when known. */
  readonly path: string | undefined;

  constructor(code: McpServerErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'McpServerError';
    this.code = code;
    this.path = options?.path;
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'McpServerError' });
  }
}

/** True when `value` is a `McpServerError`, across package copies (brand check, not `instanceof`). */
export function isMcpServerError(value: unknown): value is McpServerError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'McpServerError';
}
