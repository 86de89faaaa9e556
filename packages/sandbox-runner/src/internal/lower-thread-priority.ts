// The sandbox's code runs at a lower CPU priority than its host: a body that spins (or floods the bridge) shares
// the cores with the host's event loop on the host's terms, so under contention the scheduler keeps the host's
// main thread and other runs' hosts running and the sandbox waits, not the other way round.
//
// The function is self-contained (no imports, no outer names): the Node child's bootstrap and the QuickJS worker
// embed its source text with String(lowerThreadPriority), so both engines lower it the same way.

/** How many nice steps below its host a sandbox thread runs (the nice value stops at 19). */
export const SANDBOX_NICE_INCREMENT = 10;

/**
 * Lowers the calling thread's priority by `increment` nice steps, up to 19. On Linux the nice value belongs to a
 * thread, so in a worker only the worker is lowered, and in a child process its main thread (the one that runs
 * the body). Returns the nice value now in force, or undefined where the OS refused (the run goes on unchanged).
 */
export function lowerThreadPriority(os: { getPriority(): number; setPriority(priority: number): void }, increment: number): number | undefined {
  try {
    os.setPriority(Math.min(19, os.getPriority() + increment));
    return os.getPriority();
  } catch {
    return undefined;
  }
}
