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

/** What `lowerAutogroupPriority` reads and writes the autogroup files with (`node:fs`). */
export interface AutogroupFiles {
  readFileSync(path: string, encoding: 'utf8'): string;
  writeFileSync(path: string, data: string): void;
}

/** What `lowerAutogroupPriority` did: the nice value now in force, or why nothing changed. */
export type AutogroupOutcome = number | 'unsupported' | 'busy' | 'refused';

/**
 * Lowers the autogroup of process `pid` to `increment` nice steps below this process's own autogroup, up to 19.
 *
 * Linux with autogroups (`kernel.sched_autogroup_enabled`, the default of most distributions, for processes
 * outside a CPU cgroup) schedules each session as one group, and the groups share the cores as equals whatever
 * the nice values of their threads. A Node child is spawned detached (a session of its own, for the group kill),
 * so lowering its threads did nothing against the host: a spinning body and the starts of other children took
 * the host's event loop off the CPU for long stretches (bench/RESULTS.md). The group's own nice value is what
 * weighs.
 *
 * A process of the root group (the session of PID 1, as a service or a CI job started by it may be; the kernel
 * then shows an empty autogroup file) has no group of its own: there each of its threads weighs by its own nice
 * value against the child's group, so `ownNice` (the calling thread's nice value) is the base instead.
 *
 * Self-contained (no imports, no outer names, no nested functions): the child-process host's worker embeds its
 * source text and calls it right after each spawn. Returns the nice value written; 'unsupported' where there is
 * no autogroup file (not Linux, or a kernel without autogroups) or one it cannot read; 'busy' when the kernel
 * asks to try again later (it takes an unprivileged caller's change at most every 100 ms, across the machine);
 * 'refused' otherwise (the child is gone, or the write was denied).
 */
export function lowerAutogroupPriority(fs: AutogroupFiles, pid: number, increment: number, ownNice: number): AutogroupOutcome {
  let own: string;
  try {
    own = fs.readFileSync('/proc/self/autogroup', 'utf8');
  } catch {
    return 'unsupported';
  }
  const current = own.trim() === '' ? ownNice : /\bnice\s+(-?\d+)/.exec(own)?.[1];
  if (current === undefined) return 'unsupported';
  const nice = Math.min(19, Number(current) + increment);
  try {
    fs.writeFileSync(`/proc/${pid}/autogroup`, String(nice));
    return nice;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EAGAIN' ? 'busy' : 'refused';
  }
}
