// The one error class of @tool-search/adk. Everything that happens during a run is a tool result the
// model reads; these are broken contracts in how the adapter was called.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of the package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

/** The closed set of codes an `AdkError` carries. */
export type AdkErrorCode =
  /** The session declares client tools and no `onClientCall` was given to run them. */
  | 'missing_client_handler'
  /** An option of `ToolSearchToolset` is not what it must be (`stateKey`). */
  | 'invalid_options';

/** Thrown by `new ToolSearchToolset` on broken contracts. */
export class AdkError extends Error {
  readonly code: AdkErrorCode;
  /** Where in the input the problem is, when it is one option. */
  readonly path: string | undefined;

  constructor(code: AdkErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AdkError';
    this.code = code;
    this.path = options?.path;
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'AdkError' });
  }
}

/** True when `value` is an `AdkError`, across package copies (brand check, not `instanceof`). */
export function isAdkError(value: unknown): value is AdkError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'AdkError';
}
