// The one error class of @tool-search/catalog. Expected outcomes (a search miss, an unknown id) are values.
import { createErrorGuard, ToolSearchErrorBase } from '@tool-search/error-base';

/** Every reason the catalog throws: broken contracts and bad input, never a search miss. */
export type CatalogErrorCode =
  | 'invalid_tool'
  | 'duplicate_id'
  | 'invalid_options'
  | 'invalid_limit'
  | 'invalid_query'
  | 'too_many_queries'
  | 'embedder_failed';

/**
 * Thrown by the catalog when a caller breaks its contract (bad tool entry, duplicate id, bad limit, ...). `path`
 * is where in the input the problem is (`tools[3].owner`, `queries[1].query`, `searchDefaultLimit`), when known.
 */
export class CatalogError extends ToolSearchErrorBase<CatalogErrorCode> {
  /** Index of the offending entry in the array passed in, where there is one. */
  readonly index: number | undefined;

  constructor(
    code: CatalogErrorCode,
    message: string,
    options: { cause?: unknown; index?: number; path?: string } = {},
  ) {
    super('CatalogError', code, message, options);
    this.index = options.index;
  }
}

/** True for a `CatalogError` from any copy of this package (checks the `Symbol.for` brand, not `instanceof`). */
export const isCatalogError = createErrorGuard<CatalogError>('CatalogError');
