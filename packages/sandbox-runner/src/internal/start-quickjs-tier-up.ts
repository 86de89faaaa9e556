// The process's QuickJS tier-up: one background worker, started once a QuickJS engine of the process has been
// quiet for a moment, that runs a loop of bridge calls in a few throwaway contexts and ends. V8 compiles
// WebAssembly with its baseline compiler first, and moves a function to its optimising compiler only after the
// function has run a while; the compiled module, and with it the optimised code, is shared by every worker of
// the process. Without this, the first thousand or so bridge calls of a process ran on baseline code, several
// times slower a call than after the tier-up (bench/RESULTS.md, "The process's tier-up"). It serves no run and
// sees no model code, at the lowest priority there is.
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Fresh contexts the tier-up runs its loop in, about 100 bridge calls each (30, 80 or 200 gained no more). */
export const TIER_UP_CONTEXTS = 10;

/**
 * How many nice steps below the host the tier-up's thread runs (the nice value stops at 19, the lowest): below
 * the workers that serve runs (SANDBOX_NICE_INCREMENT), so that a run starting meanwhile is not slowed by it.
 */
export const TIER_UP_NICE_INCREMENT = 39;

/**
 * How long an engine must have had nothing to do (no run, no context being made) before it starts the tier-up,
 * so that a burst of runs (the cold ones as a process starts) does not share the machine with it. Started with
 * the first worker instead, it ran alongside the bench's cold runs and slowed them (bench/RESULTS.md).
 */
export const TIER_UP_QUIET_MS = 250;

/** Where the process's tier-up is: not started (or stopped before it ended), running, or done. */
export type TierUpState = 'idle' | 'running' | 'done';

interface TierUp {
  state: TierUpState;
  worker: Worker | undefined;
  /** The engine that started it: its close stops a tier-up still running. */
  owner: object | undefined;
  /** Tier-up workers started in this process, and when the last one's thread ended (tests read both). */
  started: number;
  exited: Promise<void> | undefined;
}

const tierUp: TierUp = { state: 'idle', worker: undefined, owner: undefined, started: 0, exited: undefined };

/** The process's tier-up: its state, how many tier-up workers it started, and when the last one's thread ended. */
export function quickJsTierUp(): { state: TierUpState; started: number; exited: Promise<void> | undefined } {
  return { state: tierUp.state, started: tierUp.started, exited: tierUp.exited };
}

/**
 * Starts the tier-up unless it is running or done. `workerOptions` gives the QuickJS worker's options (its
 * workerData with `tierUpContexts` set). The worker is unref'd: it never holds the process open.
 */
export function startQuickJsTierUp(owner: object, source: string, workerOptions: () => WorkerOptions): void {
  if (tierUp.state !== 'idle') return;
  const worker = new Worker(source, workerOptions());
  tierUp.state = 'running';
  tierUp.worker = worker;
  tierUp.owner = owner;
  tierUp.started += 1;
  tierUp.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
  worker.unref();
  // It prints nothing; whatever it might is dropped.
  worker.stdout.resume();
  worker.stderr.resume();
  worker.on('message', (event: { kind?: unknown }) => {
    if (event.kind !== 'tiered' || tierUp.worker !== worker) return;
    tierUp.state = 'done';
    void worker.terminate();
  });
  // A tier-up that failed or ended before it was done (an error, its heap limit) is not tried again: the runs
  // only miss a speed-up. (An 'error' needs a listener, or it would be thrown in the host; the exit follows it.)
  worker.on('error', () => {});
  worker.on('exit', () => {
    if (tierUp.worker !== worker) return;
    tierUp.state = 'done';
    tierUp.worker = undefined;
    tierUp.owner = undefined;
  });
}

/** Stops the tier-up if `owner` started it and it is still running; a later engine starts it again. */
export function stopQuickJsTierUp(owner: object): void {
  if (tierUp.owner !== owner || tierUp.state !== 'running' || tierUp.worker === undefined) return;
  const worker = tierUp.worker;
  tierUp.state = 'idle';
  tierUp.worker = undefined;
  tierUp.owner = undefined;
  void worker.terminate();
}
