// Abort plumbing for one tool call. Each call combines its own signals and removes its listeners when it
// ends, so a long session never piles listeners onto a shared signal (MaxListenersExceededWarning).

/**
 * A signal that aborts when any of `signals` does (or when `abort` is called: a call's own deadline), and
 * `dispose` to remove its listeners from them.
 */
export interface CombinedSignal {
  signal: AbortSignal;
  abort(reason: unknown): void;
  dispose(): void;
}

/** Combines signals (undefined entries are skipped). `AbortSignal.any` is missing before Node 20.3. */
export function combineSignals(signals: ReadonlyArray<AbortSignal | undefined>): CombinedSignal {
  const controller = new AbortController();
  const removers: Array<() => void> = [];
  for (const signal of signals) {
    if (signal === undefined) continue;
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    removers.push(() => signal.removeEventListener('abort', onAbort));
  }
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    dispose() {
      for (const remove of removers.splice(0)) remove();
    },
  };
}

/** Rejects when `signal` aborts, so a tool that ignores its signal cannot hang the call. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
