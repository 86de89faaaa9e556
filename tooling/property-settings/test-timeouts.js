// The suite's test timeouts, one setting: a base in milliseconds times one scale, TOOL_SEARCH_TIMEOUT_SCALE. The root
// vitest config fixes the scale once, before any worker starts (workers inherit it through the environment): the
// variable when CI or a person sets it, else how loaded the machine is as the run starts. A timeout bounds a test
// that hangs; on a machine whose cores other work keeps busy the same test takes longer, and must not fail for it.
import { availableParallelism, cpus, loadavg } from 'node:os';

/** The environment variable that carries the scale (a number >= 1) to every worker. */
export const TIMEOUT_SCALE_VARIABLE = 'TOOL_SEARCH_TIMEOUT_SCALE';
/** The largest scale the load alone gives (a hung test still fails in bounded time). */
export const MAX_TIMEOUT_SCALE = 8;

/**
 * How loaded this machine is: the 1-minute load average per core, and the share of the cores' time spent outside
 * their idle loop over a short sample (this process sleeps through it, so the share is other work).
 */
export function measureMachineLoad(sampleMs = 200) {
  const idleAndTotal = () =>
    cpus().reduce(
      ([idle, total], { times }) => [idle + times.idle, total + times.user + times.nice + times.sys + times.idle + times.irq],
      [0, 0],
    );
  const [idleBefore, totalBefore] = idleAndTotal();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, sampleMs);
  const [idleAfter, totalAfter] = idleAndTotal();
  const total = totalAfter - totalBefore;
  return {
    loadPerCore: loadavg()[0] / availableParallelism(),
    busyShare: total > 0 ? 1 - (idleAfter - idleBefore) / total : 0,
  };
}

/**
 * The scale for a measured load: the load per core (k runnable processes on a core give each about 1/k of it), at
 * least 2 when the sample found the cores nearly never idle (the load average trails new work by a minute), in
 * steps of 0.5 from 1 to MAX_TIMEOUT_SCALE.
 */
export function timeoutScaleFor({ loadPerCore, busyShare }) {
  const slowdown = Math.max(1, loadPerCore, busyShare >= 0.9 ? 2 : 1);
  return Math.min(MAX_TIMEOUT_SCALE, Math.ceil(slowdown * 2) / 2);
}

/** The suite's timeout scale: TOOL_SEARCH_TIMEOUT_SCALE, or measured once and written there for the workers. */
export function timeoutScale() {
  const raw = process.env[TIMEOUT_SCALE_VARIABLE];
  if (raw !== undefined && raw !== '') {
    const scale = Number(raw);
    if (!Number.isFinite(scale) || scale < 1) {
      throw new Error(`${TIMEOUT_SCALE_VARIABLE} must be a number >= 1 (a multiplier of every test timeout), received "${raw}".`);
    }
    return scale;
  }
  const scale = timeoutScaleFor(measureMachineLoad());
  process.env[TIMEOUT_SCALE_VARIABLE] = String(scale);
  return scale;
}

/** A test or hook timeout: `ms` (what the test needs on an idle machine) times the suite's timeout scale. */
export function scaledTimeout(ms) {
  return Math.round(ms * timeoutScale());
}
