// The total ceiling of one request, however much progress it reports: its default, and the abort reason that
// marks our own ceiling timer.

/** Default ceiling of one call however much progress it reports. */
export const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;
/** Marks the reason of our own total-time abort, so it is told apart from the caller's. */
export const TOTAL_TIMEOUT = Symbol('total-timeout');
