import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance.js';

describe('editDistance', () => {
  it('computes the Levenshtein distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('counts a swap of two neighbouring letters as two edits', () => {
    expect(editDistance('form', 'from')).toBe(2);
  });

  it('computes the distance within the bound', () => {
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
  });

  it('stops at limit + 1 when the distance is larger', () => {
    expect(editDistance('abc', 'xyzxyz', 2)).toBe(3);
    expect(editDistance('abcdef', 'uvwxyz', 1)).toBe(2);
  });
});
