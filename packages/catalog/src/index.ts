/**
 * @tool-search/catalog: the public contract. Adding an export here makes it public API.
 */
export {
  createCatalog,
  DEFAULT_MAX_SEARCH_LIMIT,
  DEFAULT_SEARCH_LIMIT,
  MAX_HIT_DESCRIPTION_LENGTH,
  MAX_QUERIES_PER_CALL,
  SEARCH_LIMIT_CEILING,
} from './create-catalog.js';
export { CatalogError, isCatalogError } from './errors.js';
export type { CatalogErrorCode } from './errors.js';
export { MAX_INPUT_SIGNATURE_LENGTH, renderInputSignature } from './render-input-signature.js';
export type { RenderInputSignatureOptions } from './render-input-signature.js';
export { sanitizeText } from './sanitize-text.js';
export type { SanitizeTextOptions } from './sanitize-text.js';
export { catalogOptionsSchema, TOOL_NAME_PATTERN, TOOL_OWNER_PATTERN, toolInputSchema } from './schemas.js';
export { CONTROL_TOOL_NAMES, parseToolId, TOOL_SOURCES, toolId } from './tool-id.js';
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
