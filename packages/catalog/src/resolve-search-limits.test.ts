import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT, resolveSearchLimits, SEARCH_LIMIT_CEILING } from './resolve-search-limits.js';

describe('resolveSearchLimits', () => {
  it('uses the catalog defaults when nothing is given', () => {
    expect(resolveSearchLimits({})).toEqual({ searchDefaultLimit: DEFAULT_SEARCH_LIMIT, maxSearchLimit: DEFAULT_MAX_SEARCH_LIMIT });
  });

  it('clamps the maximum to the ceiling', () => {
    expect(resolveSearchLimits({ maxSearchLimit: SEARCH_LIMIT_CEILING + 25 })).toEqual({ searchDefaultLimit: DEFAULT_SEARCH_LIMIT, maxSearchLimit: SEARCH_LIMIT_CEILING });
  });

  it('clamps the default to the maximum', () => {
    expect(resolveSearchLimits({ searchDefaultLimit: 30, maxSearchLimit: 12 })).toEqual({ searchDefaultLimit: 12, maxSearchLimit: 12 });
  });

  it('fills unset values from the given defaults and clamps the default to a smaller maximum', () => {
    expect(resolveSearchLimits({ maxSearchLimit: 4 }, { searchDefaultLimit: 6, maxSearchLimit: 10 })).toEqual({ searchDefaultLimit: 4, maxSearchLimit: 4 });
    expect(resolveSearchLimits({}, { searchDefaultLimit: 6, maxSearchLimit: 10 })).toEqual({ searchDefaultLimit: 6, maxSearchLimit: 10 });
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(resolveSearchLimits({}))).toBe(true);
  });
});
