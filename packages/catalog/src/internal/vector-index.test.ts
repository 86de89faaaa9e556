import { describe, expect, it } from 'vitest';
import { unitVector, VectorIndex } from './vector-index.js';

const idOf = (slot: number) => `id-${String(slot).padStart(3, '0')}`;

describe('VectorIndex', () => {
  it('returns the most similar slots first, ties by id, skipping slots without a vector', () => {
    const index = new VectorIndex();
    index.set(0, unitVector([1, 0]));
    index.set(2, unitVector([1, 1]));
    index.set(3, unitVector([0, 1]));
    index.set(5, unitVector([1, 1]));
    expect(index.nearest(unitVector([1, 1]), 3, idOf)).toEqual([
      { slot: 2, similarity: 1 },
      { slot: 5, similarity: 1 },
      { slot: 0, similarity: 0.707107 },
    ]);
    expect(index.size).toBe(4);
    expect(index.dimensions).toBe(2);
  });

  it('scores only admitted slots, and forgets a cleared one', () => {
    const index = new VectorIndex();
    for (let slot = 0; slot < 100; slot++) index.set(slot, unitVector([slot, 100 - slot]));
    index.clear(99);
    const admitted = new Uint8Array(100);
    admitted[10] = 1;
    admitted[98] = 1;
    admitted[99] = 1;
    expect(index.nearest(unitVector([1, 0]), 5, idOf, admitted).map((entry) => entry.slot)).toEqual([98, 10]);
    expect(index.get(99)).toBeUndefined();
    expect(index.get(10)).toEqual(unitVector([10, 90]));
  });

  it('returns nothing for a query of another length', () => {
    const index = new VectorIndex();
    index.set(0, unitVector([1, 0, 0]));
    expect(index.nearest(unitVector([1, 0]), 3, idOf)).toEqual([]);
  });
});
