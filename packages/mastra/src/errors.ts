// The one error class of @tool-search/mastra. Everything that happens during a run is a tool result the
// model reads; these are broken contracts in how the adapter was called.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of the package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

/** The closed set of codes an `MastraProcessorError` carries. */
export type MastraProcessorErrorCode =
  /** The session declares client tools and no `onClientCall` was given to run them. */
  | 'missing_client_handler'
  /** An option of `ToolSearchSessionProcessor` is not what it must be (`search.topK`). */
  | 'invalid_options';

/** Thrown by `new ToolSearchSessionProcessor` on broken contracts. */
export class MastraProcessorError extends Error {
  readonly code: MastraProcessorErrorCode;
  /** Where in the input the problem is, when it is one option. */
  readonly path: string | undefined;

  constructor(code: MastraProcessorErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MastraProcessorError';
    this.code = code;
    this.path = options?.path;
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'MastraProcessorError' });
  }
}

/** True when `value` is an `MastraProcessorError`, across package copies (brand check, not `instanceof`). */
export function isMastraProcessorError(value: unknown): value is MastraProcessorError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'MastraProcessorError';
}
