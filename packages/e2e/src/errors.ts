// The one error class of @tool-search/e2e.

const E2E_ERROR_BRAND = Symbol.for('@tool-search/e2e/error');

/** What went wrong, as a closed set. */
export type E2eErrorCode = 'config_invalid' | 'config_unreadable';

/** An e2e harness failure: a gateway config that cannot be read or is invalid. */
export class E2eError extends Error {
  override readonly name = 'E2eError';
  readonly code: E2eErrorCode;
  readonly [E2E_ERROR_BRAND] = true;

  constructor(code: E2eErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** True for an `E2eError` from any copy of this package (brand check, not `instanceof`). */
export function isE2eError(value: unknown): value is E2eError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[E2E_ERROR_BRAND] === true;
}
