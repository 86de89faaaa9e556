// The one error class of @tool-search/sandbox-runner. Run outcomes (timeout, crash, limits) are values, not errors.

const SANDBOX_RUNNER_ERROR_BRAND = Symbol.for('@tool-search/sandbox-runner/SandboxRunnerError');

/** Every reason the runner throws: broken contracts only, never the outcome of a run. */
export type SandboxRunnerErrorCode = 'invalid_options' | 'invalid_run_options' | 'runner_closed';

/** Thrown when a caller breaks the runner's contract (bad options, `run()` after `close()`). */
export class SandboxRunnerError extends Error {
  readonly code: SandboxRunnerErrorCode;
  /** The offending option path (e.g. `limits.timeoutMs`), where there is one. */
  readonly field?: string;
  readonly [SANDBOX_RUNNER_ERROR_BRAND] = true;

  constructor(code: SandboxRunnerErrorCode, message: string, options: { cause?: unknown; field?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SandboxRunnerError';
    this.code = code;
    if (options.field !== undefined) this.field = options.field;
  }
}

/** True for a `SandboxRunnerError` from any copy of this package (checks a `Symbol.for` brand, not `instanceof`). */
export function isSandboxRunnerError(value: unknown): value is SandboxRunnerError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[SANDBOX_RUNNER_ERROR_BRAND] === true
  );
}
