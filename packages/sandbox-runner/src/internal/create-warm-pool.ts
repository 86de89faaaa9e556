// Pre-spawned, single-use children. Each serves exactly one run and dies; the pool refills in the background,
// never holds more than `size`, and its idle children neither keep the parent alive nor outlive it.
import type { Logger } from 'pino';
import type { SandboxChild } from './spawn-sandbox-child.js';

/** After this many children in a row die before `ready`, the pool stops refilling (runs spawn cold). */
export const MAX_CONSECUTIVE_SPAWN_FAILURES = 3;

/** Options of `createWarmPool`. */
export interface WarmPoolOptions {
  size: number;
  spawnChild(): SandboxChild;
  logger: Logger;
}

/** A warm pool. */
export interface WarmPool {
  /** Removes and returns a ready child (or else one still starting); undefined when the pool is empty. */
  take(): SandboxChild | undefined;
  /**
   * Tops the pool up on a later turn. The runner calls it when a run ends rather than when it starts, so that a
   * new child's start-up does not compete for CPU with the run it would be replacing.
   */
  refill(): void;
  /** Children currently held (ready or starting). */
  readonly size: number;
  /** Kills every held child and stops refilling. */
  close(): void;
}

/** Creates a pool and starts filling it. */
export function createWarmPool(options: WarmPoolOptions): WarmPool {
  const held = new Set<SandboxChild>();
  const ready = new Set<SandboxChild>();
  let consecutiveFailures = 0;
  let closed = false;
  let refillScheduled = false;

  function fill(): void {
    refillScheduled = false;
    while (!closed && held.size < options.size && consecutiveFailures < MAX_CONSECUTIVE_SPAWN_FAILURES) {
      const child = options.spawnChild();
      child.unref();
      held.add(child);
      void child.ready.then((readiness) => {
        if (readiness.ok) {
          consecutiveFailures = 0;
          if (held.has(child)) ready.add(child);
          return;
        }
        consecutiveFailures += 1;
        options.logger.warn({ reason: readiness.reason, consecutiveFailures }, 'warm child failed to start');
      });
      void child.exited.then(() => {
        // An idle child that dies (killed from outside, crashed) is replaced.
        if (held.delete(child)) {
          ready.delete(child);
          scheduleRefill();
        }
      });
    }
  }

  function scheduleRefill(): void {
    if (refillScheduled || closed) return;
    refillScheduled = true;
    setTimeout(fill, 0).unref();
  }

  fill();

  return {
    take() {
      // A child whose exit was seen but whose `exited` handler has not run yet is dropped here, not handed out.
      // (One that died unseen can still be handed out: the run then moves to a fresh child, see execute-run.ts.)
      for (const child of held) {
        if (!child.hasExited) continue;
        held.delete(child);
        ready.delete(child);
        scheduleRefill();
      }
      const child = ready.values().next().value ?? held.values().next().value;
      if (child === undefined) return undefined;
      held.delete(child);
      ready.delete(child);
      return child;
    },
    refill: scheduleRefill,
    get size() {
      return held.size;
    },
    close() {
      closed = true;
      for (const child of held) child.kill();
      held.clear();
      ready.clear();
    },
  };
}
