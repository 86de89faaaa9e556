import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TIMEOUT_SCALE, measureMachineLoad, scaledTimeout, TIMEOUT_SCALE_VARIABLE, timeoutScale, timeoutScaleFor } from './test-timeouts.js';

describe('timeoutScaleFor', () => {
  it('is 1 on an idle machine and the load per core on a busy one, in steps of 0.5', () => {
    expect(timeoutScaleFor({ loadPerCore: 0.2, busyShare: 0.1 })).toBe(1);
    expect(timeoutScaleFor({ loadPerCore: 2.2, busyShare: 0.5 })).toBe(2.5);
    expect(timeoutScaleFor({ loadPerCore: 6, busyShare: 1 })).toBe(6);
  });

  it('is at least 2 when the cores were nearly never idle, though the load average has not caught up', () => {
    expect(timeoutScaleFor({ loadPerCore: 0.1, busyShare: 0.95 })).toBe(2);
  });

  it('stops at MAX_TIMEOUT_SCALE, so a hung test still fails in bounded time', () => {
    expect(timeoutScaleFor({ loadPerCore: 40, busyShare: 1 })).toBe(MAX_TIMEOUT_SCALE);
  });
});

describe('timeoutScale', () => {
  const before = process.env[TIMEOUT_SCALE_VARIABLE];
  afterEach(() => {
    if (before === undefined) delete process.env[TIMEOUT_SCALE_VARIABLE];
    else process.env[TIMEOUT_SCALE_VARIABLE] = before;
  });

  it('takes TOOL_SEARCH_TIMEOUT_SCALE as given, and scaledTimeout multiplies by it', () => {
    process.env[TIMEOUT_SCALE_VARIABLE] = '3';
    expect(timeoutScale()).toBe(3);
    expect(scaledTimeout(5_000)).toBe(15_000);
  });

  it('rejects a scale below 1 or not a number, naming the variable and the value', () => {
    process.env[TIMEOUT_SCALE_VARIABLE] = '0.5';
    expect(() => timeoutScale()).toThrow('TOOL_SEARCH_TIMEOUT_SCALE must be a number >= 1 (a multiplier of every test timeout), received "0.5".');
    process.env[TIMEOUT_SCALE_VARIABLE] = 'fast';
    expect(() => timeoutScale()).toThrow('received "fast"');
  });

  it('measures the machine once when unset and writes the scale for the workers', () => {
    delete process.env[TIMEOUT_SCALE_VARIABLE];
    const scale = timeoutScale();
    expect(scale).toBeGreaterThanOrEqual(1);
    expect(scale).toBeLessThanOrEqual(MAX_TIMEOUT_SCALE);
    expect(process.env[TIMEOUT_SCALE_VARIABLE]).toBe(String(scale));
  });
});

describe('measureMachineLoad', () => {
  it('reports the load per core and a busy share between 0 and 1', () => {
    const load = measureMachineLoad(20);
    expect(load.loadPerCore).toBeGreaterThanOrEqual(0);
    expect(load.busyShare).toBeGreaterThanOrEqual(0);
    expect(load.busyShare).toBeLessThanOrEqual(1);
  });
});
