// The search limits and their clamps: the one place a default or a maximum `limit` is decided.

/** Default number of hits per search. */
export const DEFAULT_SEARCH_LIMIT = 8;
/** Default maximum `limit` per search; larger limits are clamped to it. */
export const DEFAULT_MAX_SEARCH_LIMIT = 20;
/** The hard ceiling for `maxSearchLimit`, whatever the options say. */
export const SEARCH_LIMIT_CEILING = 50;

/** Effective search limits: hits per search when none is asked for, and the most a search returns. */
export type ResolvedSearchLimits = Readonly<{ searchDefaultLimit: number; maxSearchLimit: number }>;

const DEFAULT_LIMITS: ResolvedSearchLimits = Object.freeze({ searchDefaultLimit: DEFAULT_SEARCH_LIMIT, maxSearchLimit: DEFAULT_MAX_SEARCH_LIMIT });

/**
 * Search limits from `options` over `defaults` (the catalog's defaults unless given): the maximum is clamped to
 * `SEARCH_LIMIT_CEILING`, the default to the maximum. The inputs are validated positive integers.
 */
export function resolveSearchLimits(
  options: { searchDefaultLimit?: number | undefined; maxSearchLimit?: number | undefined },
  defaults: ResolvedSearchLimits = DEFAULT_LIMITS,
): ResolvedSearchLimits {
  const maxSearchLimit = Math.min(options.maxSearchLimit ?? defaults.maxSearchLimit, SEARCH_LIMIT_CEILING);
  const searchDefaultLimit = Math.min(options.searchDefaultLimit ?? defaults.searchDefaultLimit, maxSearchLimit);
  return Object.freeze({ searchDefaultLimit, maxSearchLimit });
}
