// The one error class of @tool-search/e2e.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of the package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

/** What went wrong, as a closed set. */
export type E2eErrorCode = 'config_invalid' | 'config_unreadable';

/** An e2e harness failure: a gateway config that cannot be read or is invalid. */
export class E2eError extends Error {
  override readonly name = 'E2eError';
  readonly code: E2eErrorCode;
  /** Where in the gateway config the problem is (`mcp.servers[0].command`), when known. */
  readonly path: string | undefined;

  constructor(code: E2eErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options?.path;
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'E2eError' });
  }
}

/** True for an `E2eError` from any copy of this package (brand check, not `instanceof`). */
export function isE2eError(value: unknown): value is E2eError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'E2eError';
}
