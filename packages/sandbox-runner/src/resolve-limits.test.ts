import { describe, expect, it } from 'vitest';
import { clampLimit, DEFAULT_LIMITS, LIMIT_BOUNDS, resolveLimits } from './resolve-limits.js';

describe('DEFAULT_LIMITS', () => {
  it('is no looser than the documented budgets: 10 s, 64 MB, 1 MiB output, 200 lines of 8 KiB, 1 MiB result, 50 calls, 16 in flight', () => {
    expect(DEFAULT_LIMITS).toEqual({
      timeoutMs: 10_000,
      heapMb: 64,
      outputBytes: 1_048_576,
      logLines: 200,
      logLineBytes: 8192,
      resultBytes: 1_048_576,
      toolCalls: 50,
      inFlightCalls: 16,
    });
  });

  it('is frozen', () => {
    expect(Object.isFrozen(DEFAULT_LIMITS)).toBe(true);
  });
});

describe('resolveLimits', () => {
  it('fills unset limits from the defaults', () => {
    expect(resolveLimits({ toolCalls: 5 })).toEqual({ ...DEFAULT_LIMITS, toolCalls: 5 });
  });

  it('clamps the timeout to 1–60 s', () => {
    expect(resolveLimits({ timeoutMs: 10 }).timeoutMs).toBe(1_000);
    expect(resolveLimits({ timeoutMs: 600_000 }).timeoutMs).toBe(60_000);
  });

  it('clamps every other limit into its bound and rounds to an integer', () => {
    expect(resolveLimits({ heapMb: 1, inFlightCalls: 1000, logLines: 2.6 })).toMatchObject({
      heapMb: LIMIT_BOUNDS.heapMb[0],
      inFlightCalls: LIMIT_BOUNDS.inFlightCalls[1],
      logLines: 3,
    });
  });
});

describe('clampLimit', () => {
  it('keeps a value inside its bound unchanged', () => {
    expect(clampLimit('timeoutMs', 5_000)).toBe(5_000);
  });
});
