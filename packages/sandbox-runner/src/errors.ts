// The one error class of @tool-search/sandbox-runner. Run outcomes (timeout, crash, limits) are values, not errors.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of the package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

/** Every reason the runner throws: broken contracts only, never the outcome of a run. */
export type SandboxRunnerErrorCode = 'invalid_options' | 'invalid_run_options' | 'runner_closed';

/** Thrown when a caller breaks the runner's contract (bad options, `run()` after `close()`). */
export class SandboxRunnerError extends Error {
  readonly code: SandboxRunnerErrorCode;
  /** Where in the options the problem is (`limits.timeoutMs`), when known. */
  readonly path: string | undefined;

  constructor(code: SandboxRunnerErrorCode, message: string, options: { cause?: unknown; path?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SandboxRunnerError';
    this.code = code;
    this.path = options.path;
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'SandboxRunnerError' });
  }
}

/** True for a `SandboxRunnerError` from any copy of this package (checks the `Symbol.for` brand, not `instanceof`). */
export function isSandboxRunnerError(value: unknown): value is SandboxRunnerError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'SandboxRunnerError'
  );
}
