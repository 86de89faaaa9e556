// The one error class of @tool-search/ai-sdk. Everything that happens during a run is a tool result the model
// reads; these are broken contracts in how the adapter was called.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of the package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

/** The closed set of codes an `AiSdkError` carries. */
export type AiSdkErrorCode =
  /** `toolSearchFor` was given a session whose surface does not declare every allowed tool (not `direct` mode). */
  | 'wrong_mode'
  /** An option is out of range or of the wrong type (`maxResults`). */
  | 'invalid_options';

/** Thrown by `toolSearchTools` and `toolSearchFor` on broken contracts. */
export class AiSdkError extends Error {
  readonly code: AiSdkErrorCode;
  /** Where in the input the problem is (`maxResults`), when known. */
  readonly path: string | undefined;

  constructor(code: AiSdkErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AiSdkError';
    this.code = code;
    this.path = options?.path;
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'AiSdkError' });
  }
}

/** True when `value` is an `AiSdkError`, across package copies (brand check, not `instanceof`). */
export function isAiSdkError(value: unknown): value is AiSdkError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'AiSdkError';
}
