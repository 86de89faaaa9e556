// The one error class of @tool-search/catalog. Expected outcomes (a search miss, an unknown id) are values.

const CATALOG_ERROR_BRAND = Symbol.for('@tool-search/catalog/CatalogError');

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
  readonly index?: number;
  /** The offending field path (e.g. `owner`, `inputSchema`), where there is one. */
  readonly field?: string;
  readonly [CATALOG_ERROR_BRAND] = true;

  constructor(
    code: CatalogErrorCode,
    message: string,
    options: { cause?: unknown; index?: number; field?: string } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CatalogError';
    this.code = code;
    if (options.index !== undefined) this.index = options.index;
    if (options.field !== undefined) this.field = options.field;
  }
}

/** True for a `CatalogError` from any copy of this package (checks a `Symbol.for` brand, not `instanceof`). */
export function isCatalogError(value: unknown): value is CatalogError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CATALOG_ERROR_BRAND] === true;
}
