// The one error class of @tool-search/openai-agents. Everything that happens during a run is a tool result the
// model reads; these are broken contracts in how the adapter was called.

const OPENAI_AGENTS_ERROR = Symbol.for('@tool-search/openai-agents/error');

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
  readonly [OPENAI_AGENTS_ERROR] = true;

  constructor(code: OpenAIAgentsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OpenAIAgentsError';
    this.code = code;
  }
}

/** True when `value` is an `OpenAIAgentsError`, across package copies (brand check, not `instanceof`). */
export function isOpenAIAgentsError(value: unknown): value is OpenAIAgentsError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[OPENAI_AGENTS_ERROR] === true;
}
