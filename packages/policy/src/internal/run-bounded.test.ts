import { describe, expect, it } from 'vitest';
import { runBounded } from './run-bounded';

describe('runBounded', () => {
  it('settles with the value of a synchronous step', async () => {
    expect(await runBounded(() => 42, 1000)).toEqual({ kind: 'value', value: 42 });
  });

  it('settles with the error of a step that throws or rejects', async () => {
    const error = new Error('x');
    expect(
      await runBounded(() => {
        throw error;
      }, 1000),
    ).toEqual({ kind: 'threw', error });
    expect(await runBounded(() => Promise.reject(error), 1000)).toEqual({ kind: 'threw', error });
  });

  it('settles with a timeout and aborts the step signal when the step hangs', async () => {
    let seen: AbortSignal | undefined;
    const outcome = await runBounded((signal) => {
      seen = signal;
      return new Promise(() => {});
    }, 3);
    expect(outcome).toEqual({ kind: 'timeout', timeoutMs: 3 });
    expect(seen?.aborted).toBe(true);
  });

  it('does not call the step when the outer signal is already aborted', async () => {
    let called = false;
    const controller = new AbortController();
    controller.abort();
    const outcome = await runBounded(() => {
      called = true;
    }, 1000, controller.signal);
    expect(outcome).toEqual({ kind: 'aborted' });
    expect(called).toBe(false);
  });

  it('settles as aborted when the outer signal aborts mid-step', async () => {
    const controller = new AbortController();
    const outcome = await runBounded(() => {
      queueMicrotask(() => controller.abort());
      return new Promise(() => {});
    }, 60_000, controller.signal);
    expect(outcome).toEqual({ kind: 'aborted' });
  });

  it('settles as threw for a thenable whose then throws', async () => {
    const hostile = {
      then() {
        throw new Error('hostile');
      },
    };
    expect(await runBounded(() => hostile, 1000)).toMatchObject({ kind: 'threw' });
  });
});
