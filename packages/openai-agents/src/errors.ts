// The one error class of @tool-search/openai-agents. Everything that happens during a run is a tool result the
// model reads; these are broken contracts in how the adapter was called.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of the package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

/** The closed set of codes an `OpenAIAgentsError` carries. */
export type OpenAIAgentsErrorCode =
  /** `toolSearchFor` was given a session whose surface does not declare every allowed tool (not `direct` mode). */
  | 'wrong_mode'
  /** The session declares client tools and no `onClientCall` was given to run them. */
  | 'missing_client_handler'
  /** Two declared names become the same Agents SDK function name (the SDK turns `-` into `_`). */
  | 'name_collision';

/** Thrown by `toolSearchTools` and `toolSearchFor` on broken contracts. */
export class OpenAIAgentsError extends Error {
  readonly code: OpenAIAgentsErrorCode;
  /** Where in the input the problem is, when it is one option. */
  readonly path: string | undefined;

  constructor(code: OpenAIAgentsErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OpenAIAgentsError';
    this.code = code;
    this.path = options?.path;
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'OpenAIAgentsError' });
  }
}

/** True when `value` is an `OpenAIAgentsError`, across package copies (brand check, not `instanceof`). */
export function isOpenAIAgentsError(value: unknown): value is OpenAIAgentsError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'OpenAIAgentsError';
}
