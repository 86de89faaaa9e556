// The one error class of @tool-search/langchain. Everything that happens during a run is a tool message the model
// reads; these are broken contracts in how the middleware was set up.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of the package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

/** The closed set of codes a `LangChainAdapterError` carries. */
export type LangChainAdapterErrorCode =
  /** The session declares a client tool that no tool of the agent (`createAgent({ tools })`) runs. */
  | 'missing_client_tool'
  /** A tool of the agent has the name of a session tool that is not a client tool (which would run it is ambiguous). */
  | 'name_collision'
  /** Native mode with a model that is not Anthropic's (the only provider whose deferral the middleware drives). */
  | 'unsupported_format';

/** Thrown (out of the agent's model call) by `toolSearchMiddleware` on broken contracts. */
export class LangChainAdapterError extends Error {
  readonly code: LangChainAdapterErrorCode;
  /** Where in the input the problem is, when it is one option. */
  readonly path: string | undefined;

  constructor(code: LangChainAdapterErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LangChainAdapterError';
    this.code = code;
    this.path = options?.path;
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'LangChainAdapterError' });
  }
}

/** True when `value` is a `LangChainAdapterError`, across package copies (brand check, not `instanceof`). */
export function isLangChainAdapterError(value: unknown): value is LangChainAdapterError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'LangChainAdapterError';
}
