/**
 * @tool-search/catalog: the public contract. Adding an export here makes it public API.
 */
export {
  createCatalog,
  DEFAULT_MAX_SEARCH_LIMIT,
  DEFAULT_SEARCH_LIMIT,
  DEFAULT_SERVER_MAP_BYTES,
  MAX_QUERIES_PER_CALL,
  SEARCH_LIMIT_CEILING,
  SERVERS_PER_PAGE,
} from './create-catalog.js';
export { CatalogError, isCatalogError } from './errors.js';
export type { CatalogErrorCode } from './errors.js';
export { sanitizeText } from './sanitize-text.js';
export type { SanitizeTextOptions } from './sanitize-text.js';
export { createOpenAiEmbedder } from './create-openai-embedder.js';
export type { OpenAiEmbedderOptions } from './create-openai-embedder.js';
export {
  MAX_DESCRIPTION_LENGTH,
  MAX_TITLE_LENGTH,
  toolInputSchema,
} from './schemas.js';
export { parseToolId, TOOL_SOURCES, toolId } from './tool-id.js';
export { isToolSource } from './tool-id.js';
export { isTrustedByDefault } from './is-trusted-by-default.js';
export { resolveSearchLimits } from './resolve-search-limits.js';
export type { ResolvedSearchLimits } from './resolve-search-limits.js';
export { editDistance } from './edit-distance.js';
export type {
  AddResult,
  BrowsedTool,
  BrowseOptions,
  BrowseResult,
  Catalog,
  CatalogOptions,
  CatalogReader,
  CatalogView,
  DescribeResult,
  Embedder,
  EmbeddingCache,
  EmbeddingKind,
  EmbeddingUpdate,
  JsonSchema,
  LikelyToolsOptions,
  OwnerContext,
  RejectedTool,
  RejectedToolCode,
  SearchHit,
  SearchAnswer,
  SearchExplanation,
  MatchPath,
  SearchOptions,
  SearchQuery,
  ServerMap,
  ServerMapNext,
  ServerMapOptions,
  ServerSummary,
  StartingOwner,
  ToolAnnotations,
  ToolDescription,
  ToolDescriptor,
  ToolFilter,
  ToolInput,
  ViewOptions,
} from './types.js';
export type { ToolSource } from './tool-id.js';
