// Default budgets and the hard range of each: a runner may tighten or loosen them, never past the range.
import type { RunnerLimits } from './types.js';

/** The budgets a runner uses unless told otherwise. */
export const DEFAULT_LIMITS: Readonly<RunnerLimits> = Object.freeze({
  timeoutMs: 10_000,
  heapMb: 64,
  outputBytes: 1024 * 1024,
  logLines: 200,
  logLineBytes: 8 * 1024,
  resultBytes: 1024 * 1024,
  toolCalls: 50,
  inFlightCalls: 16,
});

/** The range each limit is clamped to. */
export const LIMIT_BOUNDS: Readonly<Record<keyof RunnerLimits, readonly [min: number, max: number]>> = Object.freeze({
  timeoutMs: [1_000, 60_000],
  heapMb: [16, 1024],
  outputBytes: [1024, 16 * 1024 * 1024],
  logLines: [1, 10_000],
  logLineBytes: [64, 64 * 1024],
  resultBytes: [1024, 16 * 1024 * 1024],
  toolCalls: [1, 1_000],
  inFlightCalls: [1, 64],
});

/** Clamps `value` into the range of limit `name` (and rounds it to an integer). */
export function clampLimit(name: keyof RunnerLimits, value: number): number {
  const [min, max] = LIMIT_BOUNDS[name];
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** Fills unset limits from `DEFAULT_LIMITS` and clamps every one into its range. */
export function resolveLimits(overrides: Partial<RunnerLimits> = {}): RunnerLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const name of Object.keys(limits) as Array<keyof RunnerLimits>) {
    const value = overrides[name];
    limits[name] = clampLimit(name, value ?? DEFAULT_LIMITS[name]);
  }
  return limits;
}
