import { describe, expect, it } from 'vitest';
import { createPacedQueue, PAUSE_FACTOR } from './create-paced-queue.js';

/** A clock the test moves by hand, and a handler that "costs" what each item says. */
function createClockedQueue() {
  let clock = 0;
  const handled: Array<{ item: string; at: number }> = [];
  const backlog: boolean[] = [];
  const costs = new Map<string, number>();
  const queue = createPacedQueue<string>({
    now: () => clock,
    handle(item) {
      handled.push({ item, at: clock });
      clock += costs.get(item) ?? 0;
    },
    onBacklog: (value) => backlog.push(value),
  });
  return { queue, handled, backlog, costs, advance: (ms: number) => (clock += ms) };
}

const waitFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createPacedQueue', () => {
  it('handles a cheap item at once, in the producer call', () => {
    const { queue, handled } = createClockedQueue();
    queue.push('a');
    queue.push('b');
    expect(handled.map((entry) => entry.item)).toEqual(['a', 'b']);
  });

  it('pauses after a heavy item for twice its cost before the next, in order, and reports the backlog', async () => {
    const { queue, handled, backlog, costs, advance } = createClockedQueue();
    costs.set('heavy', 10);
    queue.push('heavy');
    queue.push('next');
    queue.push('last');
    expect(handled.map((entry) => entry.item)).toEqual(['heavy']);
    expect(backlog).toEqual([true]);
    await waitFor(5);
    expect(handled.map((entry) => entry.item)).toEqual(['heavy']);
    advance(10 * PAUSE_FACTOR);
    await waitFor(30);
    expect(handled.map((entry) => entry.item)).toEqual(['heavy', 'next', 'last']);
    expect(handled[1]?.at).toBeGreaterThanOrEqual(10 + 10 * PAUSE_FACTOR);
    expect(backlog).toEqual([true, false]);
  });

  it('runs afterDrain callbacks once everything pushed before them was handled', async () => {
    const { queue, handled, costs, advance } = createClockedQueue();
    costs.set('heavy', 5);
    queue.push('heavy');
    queue.push('next');
    const seen: string[][] = [];
    queue.afterDrain(() => seen.push(handled.map((entry) => entry.item)));
    expect(seen).toEqual([]);
    advance(50);
    await waitFor(30);
    expect(seen).toEqual([['heavy', 'next']]);
    queue.afterDrain(() => seen.push(['immediately']));
    expect(seen).toEqual([['heavy', 'next'], ['immediately']]);
  });

  it('drops waiting items and ignores new ones after stop', async () => {
    const { queue, handled, costs, advance } = createClockedQueue();
    costs.set('heavy', 5);
    queue.push('heavy');
    queue.push('dropped');
    queue.stop();
    queue.push('ignored');
    advance(50);
    await waitFor(30);
    expect(handled.map((entry) => entry.item)).toEqual(['heavy']);
    expect(queue.length).toBe(0);
  });
});
