// The one error class of @tool-search/adk. Everything that happens during a run is a tool result the
// model reads; these are broken contracts in how the adapter was called.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** The closed set of codes an `AdkError` carries. */
export type AdkErrorCode =
  /** The session declares client tools and no `onClientCall` was given to run them. */
  | 'missing_client_handler'
  /** An option of `ToolSearchToolset` is not what it must be (`stateKey`). */
  | 'invalid_options';

/**
 * Thrown by `new ToolSearchToolset` on broken contracts. `path` is where in the input the problem is, when it is
 * one option.
 */
export class AdkError extends ToolSearchErrorBase<AdkErrorCode> {
  constructor(code: AdkErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super('AdkError', code, message, options);
  }
}

/** True when `value` is an `AdkError`, across package copies (brand check, not `instanceof`). */
export const isAdkError = createErrorGuard<AdkError>('AdkError');
