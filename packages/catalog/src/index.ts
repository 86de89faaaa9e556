/**
 * @tool-search/catalog: the public contract. Adding an export here makes it public API.
 */
export type {
  Catalog,
  CatalogOptions,
  DescribeResult,
  JsonSchema,
  SearchHit,
  SearchOptions,
  SearchQuery,
  ToolDescription,
  ToolDescriptor,
  ToolInput,
  ToolSource,
} from './types.js';
