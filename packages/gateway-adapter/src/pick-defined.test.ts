import { describe, expect, it } from 'vitest';
import { pickDefined } from './pick-defined.js';

describe('pickDefined', () => {
  it('keeps the named keys whose values are defined, falsy ones included', () => {
    const options: { a?: number | undefined; b?: string | undefined; c?: boolean; d: null; e: string } = { a: 0, b: undefined, c: false, d: null, e: 'left out' };
    expect(pickDefined(options, ['a', 'b', 'c', 'd'])).toEqual({ a: 0, c: false, d: null });
  });

  it('leaves an undefined value out as an absent key, not a key set to undefined', () => {
    const picked = pickDefined({ a: undefined as number | undefined, b: 1 }, ['a', 'b']);
    expect(Object.keys(picked)).toEqual(['b']);
    expect('a' in picked).toBe(false);
  });
});
