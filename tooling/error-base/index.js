// The error contract every Tool Search package shares, with one owner. Private: each published package bundles
// it at build time (code and declarations; see @tool-search/tsup-config), so nothing published depends on it, and
// each package has its own copy of the class. That is why guards read the brand, a `Symbol.for` key that every
// copy shares, and never `instanceof` this class.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package and every copy of it,
 * its value the class name. A guard reads it instead of `instanceof`, so an error from another copy is recognised.
 */
export const TOOL_SEARCH_ERROR_BRAND = Symbol.for('tool-search.error');

/**
 * The base of every Tool Search error class: a `name` that is the class name (also the value of the brand), a
 * `code` from the class's closed union, a `path` where the problem is one place in the input, and an ES2022
 * `cause` only when one is given.
 * @template {string} Code
 */
export class ToolSearchErrorBase extends Error {
  /**
   * @param {string} name The class name: the error's `name` and its brand.
   * @param {Code} code
   * @param {string} message
   * @param {{ cause?: unknown, path?: string }} [options]
   */
  constructor(name, code, message, options = {}) {
    // No `cause` key at all when there is none (`'cause' in error` is false, as for a plain Error).
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    /** @readonly */
    this.code = code;
    /** @readonly */
    this.path = options.path;
    // Not enumerable, not writable: the brand is not part of what an error prints or serialises.
    Object.defineProperty(this, TOOL_SEARCH_ERROR_BRAND, { value: name });
  }
}

/**
 * The brand of `value` (the class name of a Tool Search error, from any copy of any package), or undefined when
 * it has none.
 * @param {unknown} value
 * @returns {string | undefined}
 */
export function readErrorBrand(value) {
  if (typeof value !== 'object' || value === null) return undefined;
  const brand = /** @type {Record<symbol, unknown>} */ (value)[TOOL_SEARCH_ERROR_BRAND];
  return typeof brand === 'string' ? brand : undefined;
}

/**
 * A guard for the error class called `name`: true for a value carrying that brand, from any copy of the package
 * (brand check, not `instanceof`).
 * @template {Error} T
 * @param {string} name
 * @returns {(value: unknown) => value is T}
 */
export function createErrorGuard(name) {
  return /** @type {(value: unknown) => value is T} */ ((value) => readErrorBrand(value) === name);
}
