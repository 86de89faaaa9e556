// Runs a hook or an approval request with a deadline and an AbortSignal. Whatever the callee does
// (throw synchronously, reject, hang, return a hostile thenable) the result is one of four outcomes;
// the caller turns every outcome but a well-formed value into a block.

/** How a bounded step ended. */
export type BoundedOutcome =
  | { kind: 'value'; value: unknown }
  | { kind: 'threw'; error: unknown }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'aborted' };

/** Calls `step(signal)`, settling on its result, its error, `timeoutMs`, or `outerSignal` aborting. */
export function runBounded(
  step: (signal: AbortSignal) => unknown,
  timeoutMs: number,
  outerSignal?: AbortSignal,
): Promise<BoundedOutcome> {
  const controller = new AbortController();
  if (outerSignal?.aborted) {
    controller.abort(outerSignal.reason);
    return Promise.resolve({ kind: 'aborted' });
  }
  return new Promise<BoundedOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: BoundedOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outerSignal?.removeEventListener('abort', onAbort);
      if (outcome.kind === 'timeout') controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      if (outcome.kind === 'aborted') controller.abort(outerSignal?.reason);
      resolve(outcome);
    };
    const onAbort = () => finish({ kind: 'aborted' });
    const timer = setTimeout(() => finish({ kind: 'timeout', timeoutMs }), timeoutMs);
    outerSignal?.addEventListener('abort', onAbort, { once: true });
    try {
      Promise.resolve(step(controller.signal)).then(
        (value) => finish({ kind: 'value', value }),
        (error: unknown) => finish({ kind: 'threw', error }),
      );
    } catch (error) {
      finish({ kind: 'threw', error });
    }
  });
}
