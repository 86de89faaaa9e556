// The one error class of @tool-search/sandbox-runner. Run outcomes (timeout, crash, limits) are values, not errors.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** Every reason the runner throws: broken contracts only, never the outcome of a run. */
export type SandboxRunnerErrorCode = 'invalid_options' | 'invalid_run_options' | 'runner_closed';

/**
 * Thrown when a caller breaks the runner's contract (bad options, `run()` after `close()`). `path` is where in the
 * options the problem is (`limits.timeoutMs`), when known.
 */
export class SandboxRunnerError extends ToolSearchErrorBase<SandboxRunnerErrorCode> {
  constructor(code: SandboxRunnerErrorCode, message: string, options: { cause?: unknown; path?: string } = {}) {
    super('SandboxRunnerError', code, message, options);
  }
}

/** True for a `SandboxRunnerError` from any copy of this package (checks the `Symbol.for` brand, not `instanceof`). */
export const isSandboxRunnerError = createErrorGuard<SandboxRunnerError>('SandboxRunnerError');
