import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-depth-exceeds.js';

function nest(levels: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = level % 2 === 0 ? [value] : { inner: value };
  return value;
}

describe('jsonDepthExceeds', () => {
  it('accepts scalars and values exactly at the limit', () => {
    expect(jsonDepthExceeds('text', 1)).toBe(false);
    expect(jsonDepthExceeds(nest(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
  });

  it('rejects a value one level past the limit, through arrays and objects alike', () => {
    expect(jsonDepthExceeds(nest(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthExceeds({ a: 1, b: [2, { c: [[3]] }] }, 5)).toBe(false);
    expect(jsonDepthExceeds({ a: 1, b: [2, { c: [[3]] }] }, 4)).toBe(true);
  });

  it('walks a million-level value without overflowing the stack', () => {
    expect(jsonDepthExceeds(nest(1_000_000), MAX_JSON_DEPTH)).toBe(true);
  });
});
