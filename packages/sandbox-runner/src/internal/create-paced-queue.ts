// Hands one sandbox's messages to the parent in order, without letting them take over the parent's main thread.
// A message that finds nothing waiting and no pause due is handled at once.
// Each item's handling is timed; after a heavy one (a large argument parsed, say) the next waits twice as long
// as that one took, so a sandbox flooding the parent with large messages gets at most a third of its main
// thread, and everything else the parent does (other runs, their timers, the caller's own work) runs in between.

/** An item at least this expensive makes the queue pause before the next one. */
export const HEAVY_ITEM_MS = 1;

/** How much longer than a heavy item took the queue waits before the next. */
export const PAUSE_FACTOR = 2;

/** Cheap items are handled in a row for at most this long before the rest waits for the next turn. */
export const SLICE_MS = 4;

/**
 * The longest a single item's handling has taken in this process, in ms: the parent's own work per sandbox
 * message, read by `pnpm bench:sandbox` (event-loop delay also counts GC and the OS scheduler).
 */
export const PACED_QUEUE_STATS = { longestItemMs: 0, heavyItemMs: [] as number[] };

/** How many heavy items' costs the stats keep (the first ones since the bench last cleared them). */
const KEPT_HEAVY_ITEMS = 10_000;

/** Options of `createPacedQueue`. */
export interface PacedQueueOptions<T> {
  handle(item: T): void;
  /** Called when items start to pile up (the producer should stop reading) and when they have drained. */
  onBacklog?(backlogged: boolean): void;
  now?: () => number;
}

/** A paced queue. */
export interface PacedQueue<T> {
  push(item: T): void;
  /** Runs `callback` once every item pushed so far has been handled (at once if none is waiting). */
  afterDrain(callback: () => void): void;
  /** Drops every waiting item and stops (pending afterDrain callbacks run now); later pushes are ignored. */
  stop(): void;
  readonly length: number;
}

/** Creates a queue that handles items in push order, paced as described above. */
export function createPacedQueue<T>(options: PacedQueueOptions<T>): PacedQueue<T> {
  const now = options.now ?? (() => performance.now());
  const items: T[] = [];
  let head = 0;
  let drainCallbacks: Array<() => void> = [];
  let scheduled: { cancel(): void } | undefined;
  let running = false;
  let resumeAt = 0;
  let stopped = false;
  let backlogged = false;

  const waiting = () => items.length - head;

  function setBacklog(next: boolean): void {
    if (next === backlogged) return;
    backlogged = next;
    options.onBacklog?.(next);
  }

  function schedule(delayMs: number): void {
    if (scheduled !== undefined || stopped) return;
    if (delayMs <= 0) {
      const immediate = setImmediate(run);
      scheduled = { cancel: () => clearImmediate(immediate) };
    } else {
      const timer = setTimeout(run, delayMs);
      scheduled = { cancel: () => clearTimeout(timer) };
    }
  }

  function run(): void {
    scheduled = undefined;
    running = true;
    try {
      drain();
    } finally {
      running = false;
    }
  }

  function drain(): void {
    const sliceEnd = now() + SLICE_MS;
    while (!stopped && waiting() > 0) {
      const current = now();
      if (current < resumeAt) return schedule(resumeAt - current);
      if (current > sliceEnd) return schedule(0);
      const item = items[head] as T;
      items[head] = undefined as T;
      head += 1;
      const started = now();
      options.handle(item);
      const cost = now() - started;
      if (cost > PACED_QUEUE_STATS.longestItemMs) PACED_QUEUE_STATS.longestItemMs = cost;
      if (cost >= HEAVY_ITEM_MS && PACED_QUEUE_STATS.heavyItemMs.length < KEPT_HEAVY_ITEMS) PACED_QUEUE_STATS.heavyItemMs.push(cost);
      if (cost >= HEAVY_ITEM_MS) resumeAt = now() + cost * PAUSE_FACTOR;
    }
    if (stopped) return;
    items.length = 0;
    head = 0;
    setBacklog(false);
    const callbacks = drainCallbacks;
    drainCallbacks = [];
    for (const callback of callbacks) callback();
  }

  return {
    push(item) {
      if (stopped) return;
      items.push(item);
      if (running || scheduled !== undefined) {
        if (waiting() > 1) setBacklog(true);
        return;
      }
      // Nothing waiting and no pause due: handled at once, as an unpaced reader would.
      const current = now();
      if (current >= resumeAt) run();
      else {
        setBacklog(true);
        schedule(resumeAt - current);
      }
    },
    afterDrain(callback) {
      if (stopped) return callback();
      if (waiting() === 0 && scheduled === undefined && !running) callback();
      else drainCallbacks.push(callback);
    },
    stop() {
      stopped = true;
      items.length = 0;
      head = 0;
      scheduled?.cancel();
      scheduled = undefined;
      const callbacks = drainCallbacks;
      drainCallbacks = [];
      for (const callback of callbacks) callback();
    },
    get length() {
      return waiting();
    },
  };
}
