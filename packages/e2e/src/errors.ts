// The one error class of @tool-search/e2e.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** What went wrong, as a closed set. */
export type E2eErrorCode = 'config_invalid' | 'config_unreadable';

/**
 * An e2e harness failure: a gateway config that cannot be read or is invalid. `path` is where in the gateway config
 * the problem is (`mcp.servers[0].command`), when known.
 */
export class E2eError extends ToolSearchErrorBase<E2eErrorCode> {
  constructor(code: E2eErrorCode, message: string, options?: { cause?: unknown; path?: string }) {
    super('E2eError', code, message, options);
  }
}

/** True for an `E2eError` from any copy of this package (brand check, not `instanceof`). */
export const isE2eError = createErrorGuard<E2eError>('E2eError');
