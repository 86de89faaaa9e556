// The one error class of @tool-search/openai-agents. Everything that happens during a run is a tool result the
// model reads; these are broken contracts in how the adapter was called.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** The closed set of codes an `OpenAIAgentsError` carries. */
export type OpenAIAgentsErrorCode =
  /** `toolSearchFor` was given a session whose surface does not declare every allowed tool (not `direct` mode). */
  | 'wrong_mode'
  /** The session declares client tools and no `onClientCall` was given to run them. */
  | 'missing_client_handler'
  /** Two declared names become the same Agents SDK function name (the SDK turns `-` into `_`). */
  | 'name_collision';

/**
 * Thrown by `toolSearchTools` and `toolSearchFor` on broken contracts. `path` is where in the input the problem
 * is, when it is one option.
 */
export class OpenAIAgentsError extends ToolSearchErrorBase<OpenAIAgentsErrorCode> {
  constructor(code: OpenAIAgentsErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super('OpenAIAgentsError', code, message, options);
  }
}

/** True when `value` is an `OpenAIAgentsError`, across package copies (brand check, not `instanceof`). */
export const isOpenAIAgentsError = createErrorGuard<OpenAIAgentsError>('OpenAIAgentsError');
