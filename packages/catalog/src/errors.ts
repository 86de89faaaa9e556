// The one error class of @tool-search/catalog. Expected outcomes (a search miss, an unknown id) are values.

/**
 * The brand every Tool Search error carries: the same `Symbol.for` key in every package, its value the class
 * name. A guard reads it instead of `instanceof`, so an error from another copy of the package is recognised.
 */
const TOOL_SEARCH_ERROR = Symbol.for('tool-search.error');

/** Every reason the catalog throws: broken contracts and bad input, never a search miss. */
export type CatalogErrorCode =
  | 'invalid_tool'
  | 'duplicate_id'
  | 'invalid_options'
  | 'invalid_limit'
  | 'invalid_query'
  | 'too_many_queries'
  | 'embedder_failed';

/** Thrown by the catalog when a caller breaks its contract (bad tool entry, duplicate id, bad limit, ...). */
export class CatalogError extends Error {
  readonly code: CatalogErrorCode;
  /** Index of the offending entry in the array passed in, where there is one. */
  readonly index: number | undefined;
  /** Where in the input the problem is (`tools[3].owner`, `queries[1].query`, `searchDefaultLimit`), when known. */
  readonly path: string | undefined;

  constructor(
    code: CatalogErrorCode,
    message: string,
    options: { cause?: unknown; index?: number; path?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CatalogError';
    this.code = code;
    this.index = options.index;
    this.path = options.path;
    Object.defineProperty(this, TOOL_SEARCH_ERROR, { value: 'CatalogError' });
  }
}

/** True for a `CatalogError` from any copy of this package (checks the `Symbol.for` brand, not `instanceof`). */
export function isCatalogError(value: unknown): value is CatalogError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_SEARCH_ERROR] === 'CatalogError';
}
