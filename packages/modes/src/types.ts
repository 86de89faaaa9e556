// The public types of @tool-search/modes.
import type { CatalogReader, ToolInput } from '@tool-search/catalog';
import type { MODES } from './modes.js';

/**
 * What the model is shown: every schema (`direct`), one code tool, three search tools, those plus a name
 * directory, or (`native`) every catalog tool deferred behind the provider's own tool-search mechanism.
 */
export type Mode = (typeof MODES)[number];

/** The provider wire formats a surface can be converted to. */
export type SurfaceFormat = 'openai-chat' | 'openai-responses' | 'anthropic';

/**
 * Why a model tool is declared: a control tool of the mode (`tool_search`, ...), a pinned (`visible`)
 * tool, a client tool, or a catalog tool declared directly (direct mode) or deferred (native mode).
 */
export type ModelToolKind = 'control' | 'pinned' | 'client' | 'catalog';

/**
 * The provider tool-search tool a native-mode control tool stands for. `openai-client`: an OpenAI
 * Responses `tool_search` tool with `execution: 'client'`; `anthropic-client`: our own client tool whose
 * results are `tool_reference` blocks; `anthropic-bm25` / `anthropic-regex`: Anthropic's server-side
 * search tools (Anthropic searches the deferred tools itself).
 */
export type NativeSearchTool = 'openai-client' | 'anthropic-client' | 'anthropic-bm25' | 'anthropic-regex' | 'chat-client';

/** Which search tool native mode declares for Anthropic: ours (`client`, the default) or Anthropic's own. */
export type AnthropicNativeSearch = 'client' | 'bm25' | 'regex';

/** A JSON Schema whose top level is an object: what every provider requires of a tool's input schema. */
export interface ObjectJsonSchema {
  type: 'object';
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** A group of deferred catalog tools (one owner); OpenAI Responses declares it as a `namespace` tool. */
export interface ToolNamespace {
  /** Fits `^[a-zA-Z0-9_-]{1,64}$`; unique in the surface and never the name of a declared function. */
  name: string;
  /** A short generated description (owner, kind of source, how many tools, their names). */
  description: string;
}

/** One tool as the model sees it, before conversion to a provider format (the provider-neutral view). */
export interface ModelTool {
  /** The name the model calls; always matches `^[a-zA-Z0-9_-]{1,64}$` (fits every supported provider). */
  name: string;
  description: string;
  /** A JSON Schema with `type: 'object'` at the top. */
  inputSchema: ObjectJsonSchema;
  /** Why the tool is declared (see `ModelToolKind`). */
  kind: ModelToolKind;
  /**
   * The catalog-style id (`<source>:<owner>:<name>`) this model tool runs; absent for the control tools.
   * The adapter maps a call to `name` back to this id (names may be rewritten to fit providers).
   */
  id?: string;
  /** Native mode: the tool is declared with `defer_loading: true` and loaded only through a search. */
  deferred?: true;
  /** Native mode, deferred tools: the namespace (owner group) the tool belongs to. */
  namespace?: ToolNamespace;
  /** Native mode, the search control tool: which provider search tool it is rendered as. */
  nativeSearch?: NativeSearchTool;
}

/** The search and code limits the surface texts announce. */
export interface SurfaceLimits {
  /** Hits per search when no limit is given. Default: `catalog.limits.searchDefaultLimit`. */
  searchDefaultLimit: number;
  /** Largest limit a search honours. Default: `catalog.limits.maxSearchLimit`. */
  maxSearchLimit: number;
  /** Wall-clock budget of one `tool_search_code` run. Default 10,000 ms. */
  codeTimeoutMs: number;
}

/** Options of the directory in `directory` mode. */
export interface DirectoryOptions {
  /** Budget of the directory block in characters (counted as UTF-8 bytes). Overrides the budget derived from `contextWindowTokens`. */
  maxChars?: number;
  /** The model's context window; the budget is `min(11500, max(768, contextWindowTokens / 10))`. Default budget 11,500. */
  contextWindowTokens?: number;
}

/** Options of `native` mode. */
export interface NativeOptions {
  /** The search tool declared for Anthropic: ours (`client`, default: our ranking and policy) or Anthropic's `bm25`/`regex`. */
  anthropicSearch?: AnthropicNativeSearch;
  /**
   * OpenAI Chat, which has no deferral of its own (nor do the OpenAI-compatible endpoints of Gemini or local
   * models): `true` renders native mode with our `tool_search` (the `chat-client` search tool) whose finds become
   * real function definitions of the next request (`withLoadedTools`); default `false` falls back to tools mode.
   */
  chatLoading?: boolean;
}

/** Options of `renderSurface`. */
export interface RenderSurfaceOptions {
  mode: Mode;
  /**
   * The policy-filtered catalog of this run (a catalog, or a view of one). Tools and code mode read only `size`,
   * `get`, `named` and `limits`; the modes that show catalog tools (direct, directory, native) also `list` it.
   */
  catalog: Pick<CatalogReader, 'list' | 'limits' | 'size' | 'get' | 'named'>;
  /**
   * The provider format the surface is for. Required in `native` mode (the native mechanism differs per
   * provider; OpenAI Chat falls back to `tools` mode); ignored by the other modes.
   */
  format?: SurfaceFormat;
  /** Tools kept directly visible in every mode (pinned); a catalog tool with the same id is not repeated. */
  visible?: ToolInput[];
  /** Tools supplied with the run and executed by the caller (source `client`); always directly visible. */
  clientTools?: ToolInput[];
  limits?: Partial<SurfaceLimits>;
  directory?: DirectoryOptions;
  native?: NativeOptions;
  /**
   * Some sources of the catalog are still starting: the instructions of the search modes say more tools are
   * available without a count (the count would understate the catalog). The tools are rendered as always.
   */
  catalogStarting?: boolean;
}

/** What to send the model: its tools, the instruction text, and the hidden names a direct call may hydrate. */
export interface Surface {
  /** The mode rendered (`tools` when `native` fell back; see `requestedMode`). */
  mode: Mode;
  tools: ModelTool[];
  /** Text for the system prompt; empty in `direct` mode. */
  instructions: string;
  /** Exact, unique hidden catalog name → id (directory mode only; empty in the other modes). */
  hydratable: ReadonlyMap<string, string>;
  /** Native mode: the format the surface was rendered for (its tools convert to that format only). */
  format?: SurfaceFormat;
  /** Set when the mode asked for could not be rendered for the format and another was (`native` on OpenAI Chat). */
  requestedMode?: Mode;
  /** Why `requestedMode` was not rendered. */
  fallbackReason?: string;
}

/** Bytes of a surface in one provider format (UTF-8 of the serialized tools array, and of the instructions). */
export interface SurfaceMeasure {
  /** Bytes of the whole `tools` array as sent in the request. */
  toolBytes: number;
  instructionBytes: number;
  /** `toolBytes + instructionBytes`. */
  totalBytes: number;
  /**
   * Bytes of the `tools` array without the deferred definitions (a namespace keeps its name and
   * description): what the provider shows the model before any search. Equals `toolBytes` outside native mode.
   */
  upFrontToolBytes: number;
  /** Declared tools loaded only through a search (native mode); 0 in the other modes. */
  deferredTools: number;
}

/**
 * One content part of a tool result, as MCP has them (`text`, `image`, `audio`, `resource_link`, embedded
 * `resource`). Binary data (`data`, `blob`) is base64.
 */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'audio'; mimeType: string; data: string }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string; description?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string };

/**
 * A tool result to render for a provider. `text` is the model-facing text of the whole result as the caller
 * rendered it, with its own marking (untrusted wrapper, error text): text parts, resource links and text
 * resources belong there. From `parts` only the binary ones (images, audio, blob resources) are rendered, as
 * the provider's media blocks after the text; a part the format cannot carry, or over its cap, is left out
 * with a note. `structured` is appended as compact JSON after the text, unmarked: pass it only when it is
 * trusted (checked against the tool's output schema) and not already in `text`.
 */
export interface ToolResultParts {
  text: string;
  parts?: readonly ContentPart[];
  structured?: unknown;
  /** Anthropic marks the `tool_result` with `is_error`; the OpenAI formats have no such flag (say it in `text`). */
  isError?: boolean;
}

/** Caps on the binary parts of one result, in decoded bytes. A part over a cap is left out whole, never cut. */
export interface MediaLimits {
  /** Largest single part. Default 5 MiB (Anthropic's per-image limit, the strictest of the three formats). */
  maxPartBytes: number;
  /** Largest sum of the parts kept, in order. Default 20 MiB. */
  maxTotalBytes: number;
}

/** A content part a renderer left out, and why (the model reads a note about it in the result text). */
export interface DroppedContentPart {
  /** Index in `parts`. */
  index: number;
  type: ContentPart['type'];
  /** The part's media type, when it is a well-formed one. */
  mimeType?: string;
  /** Decoded size in bytes, when the data was valid base64. */
  bytes?: number;
  reason: 'over_part_limit' | 'over_total_limit' | 'unsupported_media' | 'invalid_base64';
}
