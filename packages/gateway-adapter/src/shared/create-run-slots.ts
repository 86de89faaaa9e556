// How many code-mode runs may run at once, and how many may wait for a slot. Each sandbox run is a process (or a
// worker) with its own heap: the runner bounds one run, this bounds how many. A host has one set of slots for
// all its sessions and each session one of its own, so a single session cannot take every slot. A run that finds
// the queue full, or waits longer than it may, gets a `busy` answer the model can read.
import { availableParallelism, totalmem } from 'node:os';
import type { ModelError } from '@tool-search/modes';
import { DEFAULT_LIMITS } from '@tool-search/sandbox-runner';

/** Limits on concurrent code-mode runs (`tool_search_code`), per host and per session. */
export interface CodeRunLimits {
  /** Runs at once across the host's sessions. Default: see `defaultMaxConcurrentRuns`. */
  maxConcurrent?: number | undefined;
  /** Runs at once in one session. Default: half of `maxConcurrent`, rounded up. */
  maxConcurrentPerSession?: number | undefined;
  /** Runs that may wait for a slot (host-wide; per session, twice its own limit). Default 4 x `maxConcurrent`. */
  maxQueued?: number | undefined;
}

/** A process's sandbox run beyond the runner's heap limit: the Node child or worker itself, V8 and the bridge. */
const RUN_OVERHEAD_MB = 48;

/**
 * The default number of concurrent runs: twice the cores (a run mostly waits on tool calls), at most what a
 * quarter of the machine's memory holds at the runner's default heap limit plus a run's overhead, at least 1.
 */
export function defaultMaxConcurrentRuns(): number {
  const byCores = availableParallelism() * 2;
  const byMemory = Math.floor((totalmem() / 1024 / 1024 / 4) / (DEFAULT_LIMITS.heapMb + RUN_OVERHEAD_MB));
  return Math.max(1, Math.min(byCores, byMemory));
}

/** A slot held, or why none was given. */
export type RunSlot = { ok: true; release(): void } | { ok: false; reason: 'busy' | 'cancelled'; error: ModelError };

/** A counting semaphore with a bounded FIFO queue. */
export interface RunSlots {
  readonly running: number;
  readonly queued: number;
  /** Waits for a slot (up to `waitMs`, or until `signal` aborts); the queue full answers `busy` at once. */
  acquire(options: { waitMs: number; signal?: AbortSignal | undefined }): Promise<RunSlot>;
}

/** Creates the slots; `scope` is whose they are, as the busy answer names it (a host's server starts are the server's). */
export function createRunSlots(options: { limit: number; maxQueued: number; scope: 'server' | 'session' }): RunSlots {
  const { limit, maxQueued, scope } = options;
  let running = 0;
  const waiting: Array<() => void> = [];
  const take = (): RunSlot => {
    running += 1;
    let held = true;
    return {
      ok: true,
      release() {
        if (!held) return;
        held = false;
        running -= 1;
        waiting.shift()?.();
      },
    };
  };
  const busy = (queue: { waiting: number } | { waitedMs: number }): RunSlot => ({ ok: false, reason: 'busy', error: { kind: 'runs_busy', limit, scope, queue } });
  return {
    get running() {
      return running;
    },
    get queued() {
      return waiting.length;
    },
    acquire({ waitMs, signal }) {
      if (signal?.aborted) return Promise.resolve({ ok: false, reason: 'cancelled', error: { kind: 'run_cancelled', waited: false } });
      if (running < limit && waiting.length === 0) return Promise.resolve(take());
      if (waiting.length >= maxQueued) return Promise.resolve(busy({ waiting: maxQueued }));
      return new Promise<RunSlot>((resolve) => {
        const leave = () => {
          const index = waiting.indexOf(wake);
          if (index !== -1) waiting.splice(index, 1);
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
        const wake = () => {
          leave();
          resolve(take());
        };
        const onAbort = () => {
          leave();
          resolve({ ok: false, reason: 'cancelled', error: { kind: 'run_cancelled', waited: true } });
        };
        const timer = setTimeout(() => {
          leave();
          resolve(busy({ waitedMs: waitMs }));
        }, waitMs);
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(wake);
      });
    },
  };
}

/** Takes a session slot, then a host slot (released together); the first refusal answers. */
export async function acquireRunSlots(slots: readonly RunSlots[], options: { waitMs: number; signal?: AbortSignal | undefined }): Promise<RunSlot> {
  const held: Array<() => void> = [];
  const deadline = Date.now() + options.waitMs;
  for (const each of slots) {
    const slot = await each.acquire({ waitMs: Math.max(0, deadline - Date.now()), signal: options.signal });
    if (!slot.ok) {
      for (const release of held.reverse()) release();
      return slot;
    }
    held.push(() => slot.release());
  }
  return {
    ok: true,
    release() {
      for (const release of held.splice(0).reverse()) release();
    },
  };
}
