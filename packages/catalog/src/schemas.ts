// zod schemas for what crosses the package boundary: tool entries and catalog options.
import type { Logger } from 'pino';
import { z } from 'zod';
import { TOOL_SOURCES } from './tool-id.js';
import type { Embedder, EmbeddingCache, Thesaurus } from './types.js';

/** Tool names: 1–128 characters of `[A-Za-z0-9_.-]` (the MCP tool-name rule; no `:`, the id separator). */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
/** Owners (server, plugin or client names): 1–128 characters of `[A-Za-z0-9_.@/-]`, so `@scope/pkg` fits. */
export const TOOL_OWNER_PATTERN = /^[A-Za-z0-9_.@/-]{1,128}$/;
/** Longest description accepted (characters); longer text is a contract break, not something to index. */
export const MAX_DESCRIPTION_LENGTH = 20_000;
/** Longest title accepted (characters). */
export const MAX_TITLE_LENGTH = 200;

const jsonSchemaSchema = z.record(z.string(), z.unknown());

/** The zod schema for one `ToolInput` entry (strict: an unknown field is an error). */
export const toolInputSchema = z.strictObject({
  name: z.string().regex(TOOL_NAME_PATTERN, 'expected 1–128 characters of A-Z a-z 0-9 _ . -'),
  source: z.enum(TOOL_SOURCES),
  owner: z.string().regex(TOOL_OWNER_PATTERN, 'expected 1–128 characters of A-Z a-z 0-9 _ . @ / -'),
  title: z.string().max(MAX_TITLE_LENGTH).optional(),
  description: z.string().max(MAX_DESCRIPTION_LENGTH).optional(),
  inputSchema: jsonSchemaSchema.optional(),
  outputSchema: jsonSchemaSchema.optional(),
  trusted: z.boolean().optional(),
  tags: z.array(z.string().min(1).max(64)).max(32).optional(),
  annotations: z
    .strictObject({
      readOnlyHint: z.boolean().optional(),
      destructiveHint: z.boolean().optional(),
      idempotentHint: z.boolean().optional(),
      openWorldHint: z.boolean().optional(),
    })
    .optional(),
});

/** The zod schema for `CatalogOptions` (the logger is checked for shape only). */
export const catalogOptionsSchema = z.strictObject({
  logger: z.custom<Logger>((value) => typeof value === 'object' && value !== null && typeof (value as { child?: unknown }).child === 'function', 'expected a pino logger').optional(),
  searchDefaultLimit: z.number().int().min(1).optional(),
  maxSearchLimit: z.number().int().min(1).optional(),
  reservedNames: z.array(z.string()).readonly().optional(),
  embedder: z
    .custom<Embedder>(
      (value) => typeof value === 'object' && value !== null && typeof (value as Embedder).embed === 'function' && typeof (value as Embedder).id === 'string' && (value as Embedder).id !== '',
      'expected { id: string, embed(texts, options): Promise<vectors> }',
    )
    .optional(),
  embeddingCache: z
    .custom<EmbeddingCache>(
      (value) => typeof value === 'object' && value !== null && typeof (value as EmbeddingCache).get === 'function' && typeof (value as EmbeddingCache).set === 'function',
      'expected { get(key), set(key, vector) }',
    )
    .optional(),
  thesaurus: z
    .custom<Thesaurus>(
      (value) => typeof value === 'object' && value !== null && typeof (value as Thesaurus).related === 'function' && typeof (value as Thesaurus).id === 'string' && (value as Thesaurus).id !== '',
      'expected { id: string, related(term): string[] | undefined } (see @tool-search/catalog/wordnet)',
    )
    .optional(),
});

/** Longest owner context text accepted (characters); the first `MAX_OWNER_CONTEXT_INDEXED` are indexed. */
export const MAX_OWNER_CONTEXT_LENGTH = 100_000;
/** Owner context characters indexed. */
export const MAX_OWNER_CONTEXT_INDEXED = 8_000;

/** The zod schema for `setOwnerContext`'s argument. */
export const ownerContextSchema = z.strictObject({
  source: z.enum(TOOL_SOURCES),
  owner: z.string().regex(TOOL_OWNER_PATTERN, 'expected 1–128 characters of A-Z a-z 0-9 _ . @ / -'),
  text: z.string().max(MAX_OWNER_CONTEXT_LENGTH),
  title: z.string().max(MAX_OWNER_CONTEXT_LENGTH).optional(),
  description: z.string().max(MAX_OWNER_CONTEXT_LENGTH).optional(),
});

/** The zod schema for the options of `catalog.view`. */
export const viewOptionsSchema = z.strictObject({
  searchDefaultLimit: z.number().int().min(1).optional(),
  maxSearchLimit: z.number().int().min(1).optional(),
});
