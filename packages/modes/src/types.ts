// The public types of @tool-search/modes.
import type { CatalogReader, JsonSchema, ToolInput } from '@tool-search/catalog';

/** What the model is shown: every schema (`direct`), one code tool, three search tools, or those plus a name directory. */
export type Mode = 'direct' | 'code' | 'tools' | 'directory';

/** The provider wire formats a surface can be converted to. */
export type SurfaceFormat = 'openai-chat' | 'openai-responses' | 'anthropic';

/** One tool as the model sees it, before conversion to a provider format. */
export interface ModelTool {
  /** The name the model calls; always matches `^[a-zA-Z0-9_-]{1,64}$` (fits every supported provider). */
  name: string;
  description: string;
  /** A JSON Schema with `type: 'object'` at the top. */
  inputSchema: JsonSchema;
  /**
   * The catalog-style id (`<source>:<owner>:<name>`) this model tool runs; absent for the control tools.
   * The adapter maps a call to `name` back to this id (names may be rewritten to fit providers).
   */
  id?: string;
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
  /** The model's context window; the budget is `min(12000, max(768, contextWindowTokens / 10))`. Default budget 12,000. */
  contextWindowTokens?: number;
}

/** Options of `renderSurface`. */
export interface RenderSurfaceOptions {
  mode: Mode;
  /** The policy-filtered catalog of this run (a catalog, or a view of one); only `list` and `limits` are read. */
  catalog: Pick<CatalogReader, 'list' | 'limits'>;
  /** Tools kept directly visible in every mode (pinned); a catalog tool with the same id is not repeated. */
  visible?: ToolInput[];
  /** Tools supplied with the run and executed by the caller (source `client`); always directly visible. */
  clientTools?: ToolInput[];
  limits?: Partial<SurfaceLimits>;
  directory?: DirectoryOptions;
}

/** What to send the model: its tools, the instruction text, and the hidden names a direct call may hydrate. */
export interface Surface {
  mode: Mode;
  tools: ModelTool[];
  /** Text for the system prompt; empty in `direct` mode. */
  instructions: string;
  /** Exact, unique hidden catalog name → id (directory mode only; empty in the other modes). */
  hydratable: ReadonlyMap<string, string>;
}

/** Bytes of a surface in one provider format (UTF-8 of the serialized tools array, and of the instructions). */
export interface SurfaceMeasure {
  toolBytes: number;
  instructionBytes: number;
  totalBytes: number;
}
