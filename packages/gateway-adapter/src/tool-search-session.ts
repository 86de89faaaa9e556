// The public shape of one run's session, however it was opened (`host.openSession` or `createToolSearchSession`).
import type { SearchExplanation, SearchHit, ToolDescriptor } from '@tool-search/catalog';
import type { AnthropicToolSearchResultBlock, ModelTool, OpenAIToolSearchFollowUp, OpenAIToolSearchOutputItem, ProviderToolsFor, Surface, SurfaceFormat } from '@tool-search/modes';
import type { ToolSearchModeDecision } from './decide-tool-search-mode.js';
import type { Telemetry } from './telemetry.js';
import type { ToolCallOutcome } from './tool-call-outcome.js';

/** One tool call from the model. `args` may be an object or its JSON text. */
export interface ToolCallRequest {
  name: string;
  args: unknown;
  toolCallId: string;
}

/** Progress an MCP tool reported for a call (`notifications/progress`). */
export interface ToolProgress {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** Per-call options of `session.execute`. */
export interface ExecuteOptions {
  /** Cancels the call (an MCP server is sent `notifications/cancelled`); the outcome is an error. */
  signal?: AbortSignal;
  /** Receives progress the tool reports while it runs. */
  onProgress?: (progress: ToolProgress) => void;
  /**
   * Whether an MCP tool's progress keeps its call alive past the call timeout (up to the server's
   * `maxTotalTimeoutMs`, default 10 minutes). Default true; false bounds the call by its timeout, for a caller
   * that does not follow progress (an MCP client that sent no progress token).
   */
  progressExtendsTimeout?: boolean;
  /**
   * Told when the call starts calling an upstream MCP server (a tool of it, or its resources; each such call a
   * code-mode run makes too), with the server's name and the tool id; the returned function is called when that
   * upstream call ends, `abandoned` when the gateway stopped waiting for it (cancelled, timed out) though the server
   * may still be working on it. An MCP front reads it to know which servers a client's call is talking to.
   */
  onUpstreamCall?: (call: { server: string; toolId: string }) => (end: { abandoned: boolean }) => void;
}

/** What to send the model in one provider format (`tools` has that format's exact type). */
export interface RenderedSurface<F extends SurfaceFormat = SurfaceFormat> {
  mode: Surface['mode'];
  /** The tools in the provider's own shape (OpenAI Chat, OpenAI Responses or Anthropic). */
  tools: ProviderToolsFor<F>;
  instructions: string;
  /** Set when this format could not be served in the session's mode (native on OpenAI Chat renders tools mode). */
  requestedMode?: Surface['mode'];
  fallbackReason?: string;
}

/**
 * The surface before any provider format: each tool's name, description, JSON Schema and `kind` (`control`,
 * `pinned`, `client`, `catalog`), for adapters that declare tools in a framework's own shape.
 */
export interface ModelSurface {
  mode: Surface['mode'];
  tools: ModelTool[];
  instructions: string;
}

/** The formats with a native tool search to answer. */
export type NativeSearchFormat = 'openai-responses' | 'anthropic';

/**
 * The answer to a native tool search: the provider item to send back (OpenAI: a `tool_search_output` input item;
 * Anthropic: a `tool_result` of `tool_reference` blocks), the ids it loads, and `error` when the request was
 * malformed (it is still answered, loading nothing, as the provider requires).
 */
export interface NativeSearchResult<F extends NativeSearchFormat = NativeSearchFormat> {
  item: F extends 'openai-responses' ? OpenAIToolSearchOutputItem : AnthropicToolSearchResultBlock;
  loadedIds: string[];
  /**
   * OpenAI Responses only: when a weak search loads nothing, the server map as a user message to append right after
   * `item` (a `tool_search_output` carries tool definitions only; Anthropic's `item` carries the map itself).
   */
  followUp?: OpenAIToolSearchFollowUp;
  error?: string;
}

/** The search limits of a session (its config's `searchDefaultLimit` and `maxSearchLimit`). */
export interface SearchLimits {
  searchDefaultLimit: number;
  maxSearchLimit: number;
}

/** Options of `session.search`. */
export interface SessionSearchOptions {
  /** Hits wanted. Default: the session's `searchDefaultLimit`; a larger limit is clamped to its `maxSearchLimit`. */
  limit?: number | undefined;
  /** The model's tool call this search answers, for the session log. */
  toolCallId?: string | undefined;
}

/** One run's tool-search session: the surface to send, and the executor for the model's tool calls. */
export interface ToolSearchSession {
  readonly sessionId: string;
  /** The mode decision (and fallback reason) made at creation. */
  readonly decision: ToolSearchModeDecision;
  surface<F extends SurfaceFormat>(format: F): RenderedSurface<F>;
  /** The provider-neutral surface (recorded in telemetry like `surface`, with `format: 'model'`). */
  modelSurface(): ModelSurface;
  execute(request: ToolCallRequest, options?: ExecuteOptions): Promise<ToolCallOutcome>;
  /**
   * Resolves when the host's first start of its servers is over (or its startup timeout passed): at once unless the
   * session was opened with `waitForStartup: false` before it ended. `execute` waits for it by itself; `search`,
   * `tool` and the surface see the catalog as it stands.
   */
  whenStarted(): Promise<void>;
  /**
   * The catalog entry behind an id (title, annotations, schemas) when this session's policy view holds it now;
   * undefined for a denied, unknown or unavailable tool, exactly alike. Recorded nowhere (not a model call).
   */
  tool(id: string): ToolDescriptor | undefined;
  /**
   * Native mode: answers the provider's tool-search request with the tools our catalog ranks for it under this
   * session's policy (OpenAI Responses: the `tool_search_call` output item; Anthropic: the `tool_use` block of
   * the `tool_search` tool). Each tool is loaded once per format. Calls to loaded tools come back as plain
   * function calls: `execute` them by name.
   */
  answerNativeSearch<F extends NativeSearchFormat>(request: unknown, format: F): NativeSearchResult<F>;
  /** The session's search limits. */
  readonly searchLimits: SearchLimits;
  /**
   * Searches the tools this session may see (its policy view of the catalog), best first, within its search
   * limits: the ranking behind a framework's own tool search. Counted in telemetry and logged as a `search`
   * event with `via: 'native'`. An empty query has no hits; a limit that is not an integer >= 1 throws
   * `CatalogError('invalid_limit')`; after `close` it throws `GatewayAdapterError('session_closed')`.
   */
  search(query: string, options?: SessionSearchOptions): SearchHit[];
  /**
   * Why this session's lexical search of `query` ranks as it does (the catalog's `explain`, through the session's
   * policy view): for people (the CLI's `search --explain`, a console), never part of a model's answer, and not
   * counted as a search.
   */
  explain(query: string, options?: { limit?: number }): SearchExplanation;
  telemetry(): Telemetry;
  close(): Promise<void>;
}
