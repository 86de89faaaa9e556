// The one error class of @tool-search/ai-sdk. Everything that happens during a run is a tool result the model
// reads; these are broken contracts in how the adapter was called.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** The closed set of codes an `AiSdkError` carries. */
export type AiSdkErrorCode =
  /** `toolSearchFor` was given a session whose surface does not declare every allowed tool (not `direct` mode). */
  | 'wrong_mode'
  /** An option is out of range or of the wrong type (`maxResults`). */
  | 'invalid_options';

/**
 * Thrown by `toolSearchTools` and `toolSearchFor` on broken contracts. `path` is where in the input the problem is
 * (`maxResults`), when known.
 */
export class AiSdkError extends ToolSearchErrorBase<AiSdkErrorCode> {
  constructor(code: AiSdkErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super('AiSdkError', code, message, options);
  }
}

/** True when `value` is an `AiSdkError`, across package copies (brand check, not `instanceof`). */
export const isAiSdkError = createErrorGuard<AiSdkError>('AiSdkError');
