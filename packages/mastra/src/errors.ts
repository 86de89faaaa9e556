// The one error class of @tool-search/mastra. Everything that happens during a run is a tool result the
// model reads; these are broken contracts in how the adapter was called.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** The closed set of codes an `MastraProcessorError` carries. */
export type MastraProcessorErrorCode =
  /** The session declares client tools and no `onClientCall` was given to run them. */
  | 'missing_client_handler'
  /** An option of `ToolSearchSessionProcessor` is not what it must be (`search.topK`). */
  | 'invalid_options';

/**
 * Thrown by `new ToolSearchSessionProcessor` on broken contracts. `path` is where in the input the problem is,
 * when it is one option.
 */
export class MastraProcessorError extends ToolSearchErrorBase<MastraProcessorErrorCode> {
  constructor(code: MastraProcessorErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super('MastraProcessorError', code, message, options);
  }
}

/** True when `value` is an `MastraProcessorError`, across package copies (brand check, not `instanceof`). */
export const isMastraProcessorError = createErrorGuard<MastraProcessorError>('MastraProcessorError');
