/**
 * A fresh controller that aborts when `outer` does, and a `dispose` that removes the one listener it put on
 * `outer`. Calls get their own signal so a long-lived signal (a session's) never gathers a listener per call.
 */
export function linkAbortSignal(outer: AbortSignal | undefined): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  if (outer === undefined) return { controller, dispose: () => undefined };
  if (outer.aborted) {
    controller.abort(outer.reason);
    return { controller, dispose: () => undefined };
  }
  const onAbort = () => controller.abort(outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  return { controller, dispose: () => outer.removeEventListener('abort', onAbort) };
}
