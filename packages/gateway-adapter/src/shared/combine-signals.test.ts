import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { combineSignals, raceAbort } from './combine-signals.js';

describe('combineSignals', () => {
  it('aborts when any source aborts, with its reason', () => {
    const a = new AbortController();
    const b = new AbortController();
    const combined = combineSignals([a.signal, undefined, b.signal]);
    b.abort('stop');
    expect(combined.signal.aborted).toBe(true);
    expect(combined.signal.reason).toBe('stop');
  });

  it('is aborted at once when a source already is', () => {
    const a = new AbortController();
    a.abort('early');
    expect(combineSignals([a.signal]).signal.reason).toBe('early');
  });

  it('leaves no listener on a shared signal once disposed, however many calls used it', () => {
    const session = new AbortController();
    for (let i = 0; i < 50; i += 1) combineSignals([session.signal]).dispose();
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });
});

describe('raceAbort', () => {
  it('rejects with the abort reason when the signal aborts first', async () => {
    const controller = new AbortController();
    const pending = raceAbort(new Promise(() => undefined), controller.signal);
    controller.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('resolves with the value and removes its listener', async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
