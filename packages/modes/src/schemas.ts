// Zod schemas for what crosses this package's boundary: the arguments a model sends to the control tools
// (exported for the gateway adapter to validate them) and the options of `renderSurface`.
import { TOOL_SOURCES } from '@tool-search/catalog';
import { z } from 'zod';
import { MAX_SEARCH_QUERIES } from './control-tools.js';
import { MODES } from './modes.js';

const toolIdArg = z.string().trim().min(1, 'expected a non-empty tool id');

/** Arguments of `tool_search_code`: `{ code }`. Extra keys are ignored. */
export const toolSearchCodeArgsSchema = z.object({
  code: z.string().min(1, 'expected a non-empty code body'),
});

const searchQueryArg = z.union([
  z.string().trim().min(1),
  // Weak models sometimes send the catalog's `{ query, limit }` shape inside `queries`: accept it.
  z.object({ query: z.string().trim().min(1), limit: z.number().int().min(1).optional() }),
]);

/**
 * A model whose client enforces strict schemas sends every declared argument, an absent one as null: a null
 * argument is read as an absent one.
 */
function withoutNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== null));
}

/**
 * Arguments of `tool_search`: `{ query, limit? }` or `{ queries: [...], limit? }` (up to 16) search;
 * `{ server, query, limit? }` searches one server's tools; `{ server, offset?, limit? }` lists them; `{}` lists
 * the servers and `{ query?, servers_offset }` pages that list. At most one of `query`/`queries`, no `server`
 * with `queries`, no `servers_offset` with `server`. A null argument is an absent one. A limit above the maximum
 * is left for the catalog to clamp. Extra keys are ignored.
 */
export const toolSearchArgsSchema = z.preprocess(
  withoutNulls,
  z
    .object({
      query: z.string().trim().min(1).optional(),
      queries: z.array(searchQueryArg).min(1).max(MAX_SEARCH_QUERIES).optional(),
      server: z.string().trim().min(1).optional(),
      offset: z.number().int().min(0).optional(),
      servers_offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).optional(),
    })
    .refine((args) => args.query === undefined || args.queries === undefined, { message: 'expected at most one of query or queries' })
    .refine((args) => args.server === undefined || args.queries === undefined, { message: 'server searches one query: use { server, query }' })
    .refine((args) => args.server === undefined || args.servers_offset === undefined, {
      message: 'servers_offset pages the server map; to page one server\'s tools use { server, offset }',
    }),
);

/**
 * The search arguments native mode answers (it loads tools, so it searches only): `{ query, limit? }` or
 * `{ queries: [...], limit? }`, exactly one of `query`/`queries`. A null argument is an absent one.
 */
export const nativeSearchArgsSchema = z.preprocess(
  withoutNulls,
  z
    .object({
      query: z.string().trim().min(1).optional(),
      queries: z.array(searchQueryArg).min(1).max(MAX_SEARCH_QUERIES).optional(),
      limit: z.number().int().min(1).optional(),
    })
    .refine((args) => (args.query === undefined) !== (args.queries === undefined), {
      message: 'expected exactly one of query or queries',
    }),
);

/** Arguments of `tool_describe`: `{ id }` (an id, or in directory mode an exact listed name). Extra keys are ignored. */
export const toolDescribeArgsSchema = z.object({ id: toolIdArg });

/**
 * Arguments of `tool_call`: `{ id, args }`. Strict: a flattened call (`{ id, title }`) fails here, so the
 * adapter sees it and can repair it rather than silently running the tool with no arguments.
 */
export const toolCallArgsSchema = z.strictObject({
  id: toolIdArg,
  args: z.record(z.string(), z.unknown()).default({}),
});

/** `tool_search_code` arguments after parsing. */
export type ToolSearchCodeArgs = z.infer<typeof toolSearchCodeArgsSchema>;
/** `tool_search` arguments after parsing. */
export type ToolSearchArgs = z.output<typeof toolSearchArgsSchema>;
/** Native search arguments after parsing. */
export type NativeSearchArgs = z.output<typeof nativeSearchArgsSchema>;
/** `tool_describe` arguments after parsing. */
export type ToolDescribeArgs = z.infer<typeof toolDescribeArgsSchema>;
/** `tool_call` arguments after parsing (`args` defaults to `{}`). */
export type ToolCallArgs = z.infer<typeof toolCallArgsSchema>;

// Tools handed to renderSurface are third-party shaped (the adapter's executable tools carry more fields):
// declare only what is read, strip the rest.
const toolInputSchema = z.object({
  name: z.string().min(1),
  source: z.enum(TOOL_SOURCES),
  owner: z.string().min(1),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()).optional(),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  trusted: z.boolean().optional(),
  tags: z.array(z.string()).optional(),
});

const catalogSchema = z.custom<{ list: unknown }>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { list?: unknown }).list === 'function' &&
    typeof (value as { limits?: unknown }).limits === 'object',
  { message: 'expected a Catalog (from createCatalog)' },
);

const positiveInt = z.number().int().min(1);

/** The options of `renderSurface` (our own config: strict objects). */
export const renderSurfaceOptionsSchema = z
  .strictObject({
    mode: z.enum(MODES),
    catalog: catalogSchema,
    format: z.enum(['openai-chat', 'openai-responses', 'anthropic']).optional(),
    visible: z.array(toolInputSchema).optional(),
    clientTools: z.array(toolInputSchema.extend({ source: z.literal('client') })).optional(),
    limits: z
      .strictObject({
        searchDefaultLimit: positiveInt.optional(),
        maxSearchLimit: positiveInt.optional(),
        codeTimeoutMs: positiveInt.optional(),
      })
      .optional(),
    directory: z
      .strictObject({
        maxChars: positiveInt.optional(),
        contextWindowTokens: positiveInt.optional(),
      })
      .optional(),
    native: z.strictObject({ anthropicSearch: z.enum(['client', 'bm25', 'regex']).optional(), chatLoading: z.boolean().optional() }).optional(),
    catalogStarting: z.boolean().optional(),
  })
  .refine((options) => options.mode !== 'native' || options.format !== undefined, {
    message: 'native mode needs the provider format: expected format openai-chat, openai-responses or anthropic',
    path: ['format'],
  });

// Content parts cross from the gateway (which converts MCP content); like MCP objects they may carry more
// fields (`annotations`, `_meta`): only the fields read are declared.
const textPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
const mediaPartSchema = (type: 'image' | 'audio') => z.looseObject({ type: z.literal(type), mimeType: z.string(), data: z.string() });
const resourceLinkPartSchema = z.looseObject({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string().optional(),
  mimeType: z.string().optional(),
  description: z.string().optional(),
});
const resourcePartSchema = z.looseObject({
  type: z.literal('resource'),
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string().optional(),
  blob: z.string().optional(),
});

/** One `ContentPart` (MCP's content kinds; extra fields are ignored). */
export const contentPartSchema = z.discriminatedUnion('type', [
  textPartSchema,
  mediaPartSchema('image'),
  mediaPartSchema('audio'),
  resourceLinkPartSchema,
  resourcePartSchema,
]);

/** What the tool result renderers take: `{ text, parts?, structured?, isError? }` (strict: a typo fails). */
export const toolResultPartsSchema = z.strictObject({
  text: z.string(),
  parts: z.array(contentPartSchema).optional(),
  structured: z.unknown().optional(),
  isError: z.boolean().optional(),
});

/** Caps on a result's binary parts (decoded bytes). */
export const mediaLimitsSchema = z.strictObject({
  maxPartBytes: positiveInt.optional(),
  maxTotalBytes: positiveInt.optional(),
});
