// The one error class of @tool-search/ai-sdk. Everything that happens during a run is a tool result the model
// reads; these are broken contracts in how the adapter was called.

const AI_SDK_ERROR = Symbol.for('@tool-search/ai-sdk/error');

/** The closed set of codes an `AiSdkError` carries. */
export type AiSdkErrorCode =
  /** `toolSearchFor` was given a session whose surface does not declare every allowed tool (not `direct` mode). */
  | 'wrong_mode'
  /** An option is out of range or of the wrong type (`maxResults`). */
  | 'invalid_options';

/** Thrown by `toolSearchTools` and `toolSearchFor` on broken contracts. */
export class AiSdkError extends Error {
  readonly code: AiSdkErrorCode;
  readonly [AI_SDK_ERROR] = true;

  constructor(code: AiSdkErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AiSdkError';
    this.code = code;
  }
}

/** True when `value` is an `AiSdkError`, across package copies (brand check, not `instanceof`). */
export function isAiSdkError(value: unknown): value is AiSdkError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[AI_SDK_ERROR] === true;
}
