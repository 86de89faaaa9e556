// The one error class of @tool-search/gateway-adapter. Expected outcomes (a blocked call, a missing tool, a
// server that went away) are values (`ToolCallOutcome`); this class is for broken contracts: bad config,
// bad options, a plugin that cannot be loaded, a session used after close.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of a package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

/** The closed set of codes a `GatewayAdapterError` carries. */
export type GatewayAdapterErrorCode =
  | 'invalid_config'
  | 'invalid_options'
  | 'plugin_load_failed'
  | 'session_closed';

/** Thrown by `resolveToolSearchConfig`, `createToolSearchSession` and the plugin loader on broken contracts. */
export class GatewayAdapterError extends Error {
  readonly code: GatewayAdapterErrorCode;
  /** Where in the input the problem is (`toolSearch.mode`, `sources.plugins[1]`), when known. */
  readonly path: string | undefined;

  constructor(code: GatewayAdapterErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayAdapterError';
    this.code = code;
    this.path = options?.path;
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'GatewayAdapterError' });
  }
}

/** True when `value` is a `GatewayAdapterError`, across package copies (brand check, not `instanceof`). */
export function isGatewayAdapterError(value: unknown): value is GatewayAdapterError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'GatewayAdapterError';
}

/**
 * What every Tool Search error class has in common (`CatalogError`, `PolicyError`, `SandboxRunnerError`,
 * `ModesError`, `GatewayAdapterError`, `McpServerError`, `AiSdkError`, `OpenAIAgentsError`): a `name` that is
 * the class name, a `code` from that class's closed union, and a `path` (`tools[3].inputSchema.type`) when the
 * problem is at one place in the input.
 */
export interface ToolSearchError extends Error {
  readonly name: string;
  readonly code: string;
  readonly path: string | undefined;
}

/** True for an error of any Tool Search package, from any copy of it (the shared `Symbol.for` brand). */
export function isToolSearchError(value: unknown): value is ToolSearchError {
  if (typeof value !== 'object' || value === null) return false;
  const brand = (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR];
  return typeof brand === 'string' && brand === (value as { name?: unknown }).name;
}
