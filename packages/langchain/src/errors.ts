// The one error class of @tool-search/langchain. Everything that happens during a run is a tool message the model
// reads; these are broken contracts in how the middleware was set up.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** The closed set of codes a `LangChainAdapterError` carries. */
export type LangChainAdapterErrorCode =
  /** The session declares a client tool that no tool of the agent (`createAgent({ tools })`) runs. */
  | 'missing_client_tool'
  /** A tool of the agent has the name of a session tool that is not a client tool (which would run it is ambiguous). */
  | 'name_collision'
  /** Native mode with a model that is not Anthropic's (the only provider whose deferral the middleware drives). */
  | 'unsupported_format';

/**
 * Thrown (out of the agent's model call) by `toolSearchMiddleware` on broken contracts. `path` is where in the
 * input the problem is, when it is one option.
 */
export class LangChainAdapterError extends ToolSearchErrorBase<LangChainAdapterErrorCode> {
  constructor(code: LangChainAdapterErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super('LangChainAdapterError', code, message, options);
  }
}

/** True when `value` is a `LangChainAdapterError`, across package copies (brand check, not `instanceof`). */
export const isLangChainAdapterError = createErrorGuard<LangChainAdapterError>('LangChainAdapterError');
